# Functions shared by the benchmark scripts that print a table of solvers
# side by side (compare-solvers.sh, other-boards.sh). Their input lines are
# `row|solver|round|mean_us|mean_nodes`; the caller's program fills
# t[solver, round] (times) and n[solver, round] (nodes) and sets `rounds`.

# A time in the unit its larger end needs.
function unit(us) { return us < 1000 ? 1 : us < 1000000 ? 1000 : 1000000 }
function suffix(div) { return div == 1 ? " µs" : div == 1000 ? " ms" : " s" }

# The range of a solver's times over the rounds, 3 significant digits, or
# "-" if it did not run.
function range(solver,   lo, hi, r, v, div, a, b) {
    if (!((solver, 1) in t)) return "-"
    lo = hi = t[solver, 1]
    for (r = 2; r <= rounds; r++) { v = t[solver, r]; if (v < lo) lo = v; if (v > hi) hi = v }
    div = unit(hi)
    a = sprintf("%.3g", lo / div); b = sprintf("%.3g", hi / div)
    return (a == b ? a : a "-" b) suffix(div)
}

# A solver's mean nodes (first round) as a whole number with thousands
# separators, or "-".
function nodes(solver,   v, s) {
    if (!((solver, 1) in n)) return "-"
    v = sprintf("%d", n[solver, 1] + 0.5); s = ""
    while (length(v) > 3) { s = "," substr(v, length(v) - 2) s; v = substr(v, 1, length(v) - 3) }
    return v s
}

# The median of v[1..count] with 2 decimals (sorted in place: a handful of
# values), or "-" if there is none.
function median(v, count,   i, j, x) {
    for (i = 2; i <= count; i++) for (j = i; j > 1 && v[j] < v[j - 1]; j--) {
        x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
    }
    if (count == 0) return "-"
    if (count % 2) return sprintf("%.2f", v[(count + 1) / 2])
    return sprintf("%.2f", (v[count / 2] + v[count / 2 + 1]) / 2)
}
