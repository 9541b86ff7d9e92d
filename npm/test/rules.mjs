// The rules of Connect Four, written for the tests alone (no code shared
// with c4): replays a line of 1-based columns and says how the game ends.

/** Plays `moves` (1-based columns) on a width x height board from `start`:
 * { over, winner (0 first player, 1 second, null), moves (the stones) }. */
export function replay(width, height, start, line) {
  const grid = Array.from({ length: width }, () => []);
  const columns = [...start].map((c) => (c <= "9" ? Number(c) : c.charCodeAt(0) - 96 + 9));
  let winner = null;
  let count = 0;
  for (const col of [...columns, ...line]) {
    if (winner !== null) throw new Error(`move ${count + 1} after the game was won`);
    const column = grid[col - 1];
    if (column === undefined || column.length >= height) throw new Error(`move ${count + 1}: column ${col} cannot be played`);
    const player = count % 2;
    column.push(player);
    count += 1;
    if (wins(grid, width, height, col - 1, column.length - 1, player)) winner = player;
  }
  return { over: winner !== null || count === width * height, winner, moves: count };
}

function wins(grid, width, height, col, row, player) {
  const at = (c, r) => c >= 0 && c < width && r >= 0 && r < height && grid[c][r] === player;
  for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    let n = 1;
    for (const s of [1, -1]) {
      let c = col + s * dc;
      let r = row + s * dr;
      while (at(c, r)) { n += 1; c += s * dc; r += s * dr; }
    }
    if (n >= 4) return true;
  }
  return false;
}

/** The score of a game won by the player of stone number `moves` (1-based) on
 * `cells` cells, for the side to move at `from` stones: the standard sets'
 * convention (the winner's stones left, plus one; negative for the loser). */
export function scoreOf(cells, from, result) {
  if (result.winner === null) return 0;
  const value = Math.floor((cells - result.moves) / 2) + 1;
  return result.winner === from % 2 ? value : -value;
}
