//! The JSON API of `c4 serve`, over real HTTP: every route, every error and
//! the queue limit. The answers are checked against the CLI's own output
//! (`c4 analyze --json`, `c4 solve --json --pv`, byte for byte) and against
//! the standard test sets, whose scores are the independent witness.

mod common;
mod serve_support;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use c4::Position;
use serde_json::Value;
use serve_support::{Launch, Response, Server, c4_stderr_failing, c4_stdout};

/// The query string of `moves` on a board, percent-encoded.
fn query(moves: &str, extra: &str) -> String {
    let encoded: String = moves
        .bytes()
        .map(|b| match b {
            b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("moves={encoded}{extra}")
}

#[test]
fn analyze_answers_as_the_cli_does() {
    let server = Server::start(&["--workers", "1"]);
    // The empty board (from the book), a middle game, a full column and a
    // win at once, a finished game.
    let cases: &[(&str, &str, &[&str])] = &[
        ("", "", &[]),
        ("4453", "", &[]),
        ("4453", "&weak=1", &["--weak"]),
        ("111111232323", "", &[]),
        ("111111232323", "&weak=true", &["--weak"]),
        ("1212121", "", &[]),
        (
            "121212",
            "&width=6&height=5",
            &["--width", "6", "--height", "5"],
        ),
        ("", "&width=4&height=4", &["--width", "4", "--height", "4"]),
    ];
    for (moves, extra, flags) in cases {
        let r = server.get(&format!("/api/analyze?{}", query(moves, extra)));
        assert_eq!(r.status, 200, "{moves:?} {flags:?}: {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/json"));
        let mut args = vec!["analyze", "--json", moves];
        args.extend_from_slice(flags);
        assert_eq!(r.body, c4_stdout(&args), "{moves:?} {flags:?}");
    }
}

/// `/api/review` judges every move by the scores `c4 analyze --json` gives
/// for the position before it (the witness, asked one position at a time);
/// weak, by their signs; bad input is refused as on the other routes.
#[test]
fn review_judges_each_move_by_the_scores_of_c4_analyze() {
    let server = Server::start(&["--workers", "1"]);
    // A game with each verdict (two mistakes, slower moves, a blunder last),
    // and a short one on 5x4.
    for (line, extra, flags) in [
        ("3433273653", "", &[][..]),
        (
            "1232",
            "&width=5&height=4",
            &["--width", "5", "--height", "4"][..],
        ),
    ] {
        let exact = server.get_json(&format!("/api/review?{}", query(line, extra)));
        let weak = server.get_json(&format!(
            "/api/review?{}",
            query(line, &format!("{extra}&weak=1"))
        ));
        assert_eq!(exact["game"], line);
        assert_eq!(weak["weak"], true);
        let moves = exact["moves"].as_array().unwrap();
        assert_eq!(moves.len(), line.len(), "{line}");
        for (i, m) in moves.iter().enumerate() {
            let mut args = vec!["analyze", "--json", &line[..i]];
            args.extend_from_slice(flags);
            let cli: Value = serde_json::from_str(&c4_stdout(&args)).unwrap();
            let scores: Vec<Option<i64>> = cli["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(Value::as_i64)
                .collect();
            let col = line[i..=i].parse::<usize>().unwrap() - 1;
            let best = scores.iter().flatten().copied().max().unwrap();
            let played = scores[col].unwrap();
            let best_columns: Vec<usize> = (0..scores.len())
                .filter(|&c| scores[c] == Some(best))
                .map(|c| c + 1)
                .collect();
            let what = format!("move {} of {line}: {m}", i + 1);
            assert_eq!(m["number"], i + 1, "{what}");
            assert_eq!(m["player"], i % 2 + 1, "{what}");
            assert_eq!(m["column"], col + 1, "{what}");
            assert_eq!(m["best_score"], best, "{what}");
            assert_eq!(m["played_score"], played, "{what}");
            assert_eq!(m["best_columns"], serde_json::json!(best_columns), "{what}");
            assert_eq!(m["verdict"], common::verdict(best, played), "{what}");
            let w = &weak["moves"][i];
            assert_eq!(
                w["verdict"],
                common::verdict(best.signum(), played.signum()),
                "weak {what}"
            );
        }
    }
    // The game of the test has each verdict at least once.
    let game = server.get_json("/api/review?moves=3433273653");
    for v in ["best", "slower", "mistake", "blunder"] {
        assert!(
            game["moves"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["verdict"] == v),
            "no {v} in {game}"
        );
    }
    assert_bad(
        &server,
        "/api/review?moves=44x",
        "moves",
        Some(3),
        "is not a column",
    );
    assert_bad(&server, "/api/review?moves=12121212", "moves", Some(8), "");
    assert_bad(
        &server,
        "/api/review?level=1",
        "level",
        None,
        "unknown parameter 'level'",
    );
}

#[test]
fn solve_answers_as_the_cli_does() {
    let server = Server::start(&["--workers", "1"]);
    let cases: &[(&str, &str, &[&str])] = &[
        ("4453", "", &[]),
        ("4453", "&weak=1", &["--weak"]),
        ("121212", "", &[]),
        ("1212121", "", &[]),
        ("2252576253462244111563365343671351441", "", &[]),
        (
            "121212",
            "&width=6&height=5",
            &["--width", "6", "--height", "5"],
        ),
    ];
    for (moves, extra, flags) in cases {
        let r = server.get(&format!("/api/solve?{}", query(moves, extra)));
        assert_eq!(r.status, 200, "{moves:?}: {}", r.body);
        let mut args = vec!["solve", "--json", "--pv", moves];
        args.extend_from_slice(flags);
        // The CLI's line, without the number of the input it names in a
        // batch: an answer of the API is about one position.
        let cli = c4_stdout(&args);
        let answer = cli.replacen("{\"line\":1,", "{", 1);
        assert_ne!(answer, cli, "{cli}");
        assert_eq!(r.body, answer, "{moves:?} {flags:?}");
        assert!(r.json().get("line").is_none(), "{}", r.body);
    }
}

/// No silent wrong answer: `moves` is a move string alone, so a space or a
/// tab in it is refused with the character named, whether or not what
/// follows could be a score, on every route that takes a position.
#[test]
fn a_blank_in_the_moves_is_refused() {
    let server = Server::start(&["--workers", "1"]);
    for (moves, named, character) in [
        ("44+53", "a space", 3),
        ("44%2053", "a space", 3),
        ("44%0953", "a tab", 3),
        ("44+5", "a space", 3),
        ("4453%20-2", "a space", 5),
    ] {
        for route in ["analyze", "solve", "move", "review"] {
            let level = if route == "move" { "&level=1" } else { "" };
            let path = format!("/api/{route}?moves={moves}{level}");
            let says = format!("({named}) is not a column (1-7)");
            assert_bad(&server, &path, "moves", Some(character), &says);
        }
    }
}

/// The independent witness: the scores of standard test-set lines (End-Easy
/// and Middle-Easy), and perfect-play lines that end on the move those
/// scores predict.
#[test]
fn scores_match_the_standard_sets() {
    let Some(sets) = common::sets::standard_sets() else {
        return;
    };
    let server = Server::start(&["--workers", "1"]);
    for set in ["Test_L3_R1", "Test_L2_R1"] {
        for line in sets.load(set, Some(5)) {
            let q = query(&line.moves, "");
            let solved = server.get_json(&format!("/api/solve?{q}"));
            assert_eq!(solved["score"], line.score, "{set} line {}", line.line);
            let analysis = server.get_json(&format!("/api/analyze?{q}"));
            assert_eq!(analysis["score"], line.score, "{set} line {}", line.line);
            let best = analysis["scores"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_i64)
                .max();
            assert_eq!(best, Some(i64::from(line.score)));
            let start = common::moves_from_string(&line.moves);
            let pos = Position::<7, 6>::parse(&line.moves).unwrap();
            let pv = common::moves_from_string(solved["pv"].as_str().unwrap());
            common::check_line_ends_as_predicted::<7, 6>(
                &start,
                &c4::Game::of(&pos),
                line.score,
                &pv,
            )
            .unwrap();
        }
    }
}

#[test]
fn the_levels_move_as_defined() {
    let server = Server::start(&["--workers", "1"]);
    for moves in ["4453", "2252576253462244111563365343671351441", "44444432"] {
        let analysis = server.get_json(&format!("/api/analyze?{}", query(moves, "")));
        let scores: Vec<Option<i64>> = analysis["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::as_i64)
            .collect();
        let best = scores.iter().flatten().max().copied().unwrap();
        // Perfect: the best move `c4 analyze` names.
        let perfect = server.get_json(&format!("/api/move?{}", query(moves, "&level=4")));
        assert_eq!(perfect["move"], analysis["best_move"], "{moves}");
        assert_eq!(perfect["level_name"], "perfect");
        // Strong: a move that keeps the outcome, whatever the seed.
        for seed in 0..5 {
            let strong = server.get_json(&format!(
                "/api/move?{}",
                query(moves, &format!("&level=3&seed={seed}"))
            ));
            let col = strong["move"].as_u64().unwrap() as usize;
            let s = scores[col - 1].expect("a legal column");
            if best < 0 {
                assert_eq!(s, best);
            } else {
                assert_eq!(s.signum(), best.signum(), "{moves} seed {seed}");
            }
        }
        // Beginner: a legal column, the same for the same seed.
        for seed in [1u64, 2, 3, u64::MAX] {
            let path = format!(
                "/api/move?{}",
                query(moves, &format!("&level=0&seed={seed}"))
            );
            let a = server.get_json(&path);
            assert_eq!(a, server.get_json(&path), "the seed decides");
            assert_eq!(a["seed"], seed);
            let col = a["move"].as_u64().unwrap() as usize;
            assert!(scores[col - 1].is_some(), "{moves}: column {col} is full");
        }
    }
    // Without a seed, the server picks one and says which.
    let a = server.get_json("/api/move?moves=4453&level=0");
    let again = server.get_json(&format!("/api/move?moves=4453&level=0&seed={}", a["seed"]));
    assert_eq!(a["move"], again["move"]);
}

/// A 400 answer: its status, the parameter it names, the character, and a
/// part of its message.
fn assert_bad(server: &Server, path: &str, parameter: &str, character: Option<u64>, says: &str) {
    let r = server.get(path);
    assert_eq!(r.status, 400, "{path}: {}", r.body);
    let v = r.json();
    assert_eq!(v["parameter"], parameter, "{path}: {v}");
    assert_eq!(v["character"].as_u64(), character, "{path}: {v}");
    let error = v["error"].as_str().unwrap();
    assert!(error.contains(says), "{path}: {error}");
}

#[test]
fn bad_input_is_400_naming_the_character_and_the_reason() {
    let server = Server::start(&["--workers", "1"]);
    // The position's errors are the CLI's, word for word.
    for (moves, character) in [("448", 3), ("1111111", 7), ("12121212", 8), ("44x5", 3)] {
        let stderr = c4_stderr_failing(&["analyze", moves]);
        let cli = stderr.trim_end().strip_prefix("argument 1: ").unwrap();
        for route in ["analyze", "solve", "move"] {
            let path = format!("/api/{route}?{}", query(moves, "&level=1"));
            let path = if route == "move" {
                path
            } else {
                path.replace("&level=1", "")
            };
            let r = server.get(&path);
            assert_eq!(r.status, 400, "{path}");
            let v = r.json();
            assert_eq!(v["error"], cli, "{path}");
            assert_eq!(v["character"], character, "{path}");
            assert_eq!(v["input"], moves, "{path}");
            assert_eq!(v["parameter"], "moves", "{path}");
        }
    }
    assert_bad(
        &server,
        "/api/analyze?moves=6&width=5&height=4",
        "moves",
        Some(1),
        "(1-5)",
    );
    let r = server.get("/api/analyze?moves=5&width=5&height=4");
    assert_eq!(
        r.status, 200,
        "column 5 exists on a 5-wide board: {}",
        r.body
    );
    assert_bad(
        &server,
        "/api/analyze?moves=44&mvoes=4",
        "mvoes",
        None,
        "unknown parameter 'mvoes'",
    );
    assert_bad(
        &server,
        "/api/analyze?moves=4&moves=5",
        "moves",
        None,
        "given twice",
    );
    assert_bad(&server, "/api/analyze?width=3", "width", None, "too small");
    assert_bad(
        &server,
        "/api/analyze?height=2",
        "height",
        None,
        "too small",
    );
    assert_bad(
        &server,
        "/api/analyze?width=11&height=11",
        "board",
        None,
        "too big",
    );
    assert_bad(
        &server,
        "/api/analyze?width=seven",
        "width",
        None,
        "not a whole number",
    );
    assert_bad(
        &server,
        "/api/analyze?weak=maybe",
        "weak",
        None,
        "not 1 or 0",
    );
    assert_bad(
        &server,
        "/api/solve?level=1",
        "level",
        None,
        "unknown parameter 'level'",
    );
    assert_bad(
        &server,
        "/api/move?moves=4",
        "level",
        None,
        "'level' is missing",
    );
    assert_bad(
        &server,
        "/api/move?level=5",
        "level",
        None,
        "there is no level 5",
    );
    assert_bad(
        &server,
        "/api/move?level=-1",
        "level",
        None,
        "not a whole number",
    );
    assert_bad(
        &server,
        "/api/move?level=1&seed=x",
        "seed",
        None,
        "not a whole number",
    );
    assert_bad(
        &server,
        "/api/move?moves=1212121&level=0",
        "moves",
        None,
        "the game is over",
    );
    // A route without parameters says so, in words.
    for path in ["/api/status?x=1", "/api/info?x=1"] {
        let says = "unknown parameter 'x' (this route takes no parameters)";
        assert_bad(&server, path, "x", None, says);
    }
}

#[test]
fn routes_methods_and_sizes() {
    let server = Server::start(&["--workers", "1"]);
    for (path, kind, contains) in [
        ("/", "text/html; charset=utf-8", "<svg id=\"board\""),
        ("/app.js", "text/javascript; charset=utf-8", "/api/analyze"),
        ("/style.css", "text/css; charset=utf-8", "--red"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some(kind), "{path}");
        assert!(r.body.contains(contains), "{path}");
    }
    // The page needs nothing from the network: no address but the SVG
    // namespace's (a name, never fetched).
    let page = server.get("/").body + &server.get("/app.js").body + &server.get("/style.css").body;
    let page = page.replace("\"http://www.w3.org/2000/svg\"", "");
    assert!(!page.contains("http:") && !page.contains("https:") && !page.contains("//cdn"));

    for path in ["/nope", "/api/nope", "/api", "/index.htm"] {
        let r = server.get(path);
        assert_eq!(r.status, 404, "{path}");
        assert_eq!(r.json()["error"], format!("no such page: {path}"));
    }
    for (method, path) in [
        ("POST", "/api/analyze"),
        ("PUT", "/"),
        ("DELETE", "/api/move"),
    ] {
        let r = server.request(method, path, &[], b"");
        assert_eq!(r.status, 405, "{method} {path}");
        assert_eq!(r.header("allow"), Some("GET, HEAD"));
        assert!(r.json()["error"].as_str().unwrap().contains("use GET"));
    }
    assert_eq!(server.request("HEAD", "/", &[], b"").status, 200);
    // A body, even on GET, is refused before it is read.
    let r = server.request("GET", "/api/analyze", &[], b"moves=4453");
    assert_eq!(r.status, 413);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("no request body")
    );
    let r = server.request("POST", "/api/analyze", &[], &vec![b'4'; 100_000]);
    assert_eq!(r.status, 413);
    // A URL over 2 KiB.
    let r = server.get(&format!("/api/analyze?moves={}", "4".repeat(3000)));
    assert_eq!(r.status, 414);
    assert!(r.json()["error"].as_str().unwrap().contains("2048"));

    let info = server.get_json("/api/info");
    // Every size the library supports, up to the 128-bit boards.
    let boards: Vec<(u64, u64)> = info["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["width"].as_u64().unwrap(), b["height"].as_u64().unwrap()))
        .collect();
    let supported: Vec<(u64, u64)> = c4::board::SUPPORTED
        .iter()
        .map(|&(w, h)| (w as u64, h as u64))
        .collect();
    assert_eq!(boards, supported);
    assert!(boards.contains(&(4, 31)) && boards.contains(&(8, 15)));
    let with_book: Vec<&Value> = info["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["book"] == true)
        .collect();
    assert_eq!(with_book.len(), 1);
    assert_eq!(
        (&with_book[0]["width"], &with_book[0]["height"]),
        (&7.into(), &6.into())
    );
    let levels: Vec<&str> = info["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        levels,
        ["beginner", "novice", "intermediate", "strong", "perfect"]
    );
    assert_eq!(info["workers"], 1);
    let status = server.status();
    assert_eq!(
        (status["busy"].as_u64(), status["queued"].as_u64()),
        (Some(0), Some(0))
    );
}

/// A request that needs more nodes than the limit is answered 422, never
/// with a score; a level that needs no search still moves.
#[test]
fn the_node_limit_is_reported_as_such() {
    let server = Server::start(&["--workers", "1", "--no-book", "--max-nodes", "1000"]);
    for path in [
        "/api/analyze?moves=",
        "/api/analyze?moves=&weak=1",
        "/api/solve?moves=4",
        "/api/move?moves=4&level=4",
        "/api/review?moves=4",
    ] {
        let r = server.get(path);
        assert_eq!(r.status, 422, "{path}: {}", r.body);
        let v = r.json();
        assert_eq!(v["limit"], "nodes");
        assert_eq!(v["max_nodes"], 1000);
        assert!(v.get("score").is_none() && v.get("scores").is_none());
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("node limit reached")
        );
    }
    let r = server.get("/api/move?moves=4&level=0&seed=5");
    assert_eq!(r.status, 200, "the beginner does not search: {}", r.body);
    // A position near the end fits in 1000 nodes.
    let r = server.get("/api/analyze?moves=2252576253462244111563365343671351441");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(server.status()["limited"], 5);
}

/// A search that cannot end within --max-seconds is stopped at it: its
/// client is answered 422 "time limit reached" (never a score), and its
/// worker, the only one, is free again: the request queued behind it is
/// answered next, while the routes that need no worker are answered all
/// along. A HEAD request is checked as a GET is and searches nothing.
#[test]
fn the_time_limit_stops_a_search_and_frees_its_worker() {
    let server = Server::start(&["--workers", "1", "--no-book", "--max-seconds", "1"]);
    // The empty 8x7 board without a book takes far more than a second
    // (and fewer than the default billion nodes in one).
    let hard = "/api/analyze?moves=&width=8&height=7";
    let start = Instant::now();
    let mut stuck = server.send("GET", hard, &[], b"");
    server.wait_for_status("the search to start", Duration::from_secs(60), |s| {
        s["busy"] == 1
    });
    let easy = "2252576253462244111563365343671351441";
    let waiting = server.send("GET", &format!("/api/solve?moves={easy}"), &[], b"");
    server.wait_for_status("the next request to wait", Duration::from_secs(60), |s| {
        s["queued"] == 1
    });
    assert_eq!(server.get("/api/info").status, 200, "no worker needed");

    let mut raw = Vec::new();
    stuck.read_to_end(&mut raw).expect("the answer");
    let took = start.elapsed();
    let r = Response::parse(&raw);
    assert_eq!(r.status, 422, "{}", r.body);
    let v = r.json();
    assert_eq!(
        (&v["limit"], &v["max_seconds"]),
        (&"time".into(), &1.0.into())
    );
    assert!(v.get("scores").is_none() && v.get("score").is_none(), "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("time limit reached"),
        "{v}"
    );
    assert!(took >= Duration::from_secs(1), "answered after {took:?}");
    assert!(took < Duration::from_secs(60), "answered after {took:?}");

    // The worker took the waiting request: it is answered, and right.
    let mut waiting = waiting;
    let mut raw = Vec::new();
    waiting.read_to_end(&mut raw).expect("the answer");
    let r = Response::parse(&raw);
    assert_eq!(r.status, 200, "{}", r.body);
    let cli: Value = serde_json::from_str(&c4_stdout(&["solve", "--json", "--pv", easy])).unwrap();
    assert_eq!(r.json()["score"], cli["score"]);
    let status = server.wait_for_status("the worker to be free", Duration::from_secs(10), |s| {
        s["busy"] == 0 && s["queued"] == 0
    });
    assert_eq!(
        (
            &status["timed_out"],
            &status["answered"],
            &status["cancelled"]
        ),
        (&1.into(), &2.into(), &0.into()),
        "{status}"
    );

    // HEAD: the parameters checked, no search.
    let r = server.request("HEAD", hard, &[], b"");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.body.is_empty());
    assert_eq!(
        server
            .request("HEAD", "/api/analyze?moves=9", &[], b"")
            .status,
        400
    );
    let after = server.status();
    assert_eq!(
        (&after["answered"], &after["busy"], &after["queued"]),
        (&2.into(), &0.into(), &0.into()),
        "HEAD queued no job: {after}"
    );
}

/// A server whose table (`--tt-size`) is too small for some boards' keys
/// lists only the others in `/api/info`, answers them, and refuses the rest
/// with 422 naming the table, never with a 500. The CLI is the witness of
/// which boards a table fits: `c4 solve --tt-size 16M` refuses the same ones.
#[test]
fn boards_too_big_for_the_table_are_refused_as_such() {
    let server = Server::start(&["--workers", "1", "--no-book", "--tt-size", "16M"]);
    let info = server.get_json("/api/info");
    let listed: Vec<(usize, usize)> = info["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let size = |k: &str| b[k].as_u64().unwrap() as usize;
            (size("width"), size("height"))
        })
        .collect();
    // An entry keeps 42 key bits in one word, 107 in two, so a table of
    // 2^20 one-word or 2^19 two-word buckets takes keys of 62 or 126 bits:
    // left out are the 63- and 64-bit boards and the 128-bit ones.
    let refused = [(7, 8), (9, 6), (4, 15), (8, 7), (4, 31), (8, 15), (16, 7)];
    let served: Vec<(usize, usize)> = c4::board::SUPPORTED
        .into_iter()
        .filter(|b| !refused.contains(b))
        .collect();
    assert_eq!(listed, served);
    assert!(listed.contains(&(7, 6)) && listed.contains(&(25, 4)));
    // A game already won (four in column 1) needs a solver but no search.
    let won = "1212121";
    for (w, h) in c4::board::SUPPORTED {
        let path = format!("/api/analyze?moves={won}&width={w}&height={h}");
        let r = server.get(&path);
        let (width, height) = (w.to_string(), h.to_string());
        let cli = [
            "solve",
            "--no-book",
            "--tt-size",
            "16M",
            "--width",
            &width,
            "--height",
            &height,
            won,
        ];
        if listed.contains(&(w, h)) {
            assert_eq!(r.status, 200, "{path}: {}", r.body);
            assert_eq!(r.json()["board_size"], format!("{w}x{h}"));
            // The won game's score: the loser to move, beaten on move 7.
            let score = -(((w * h) as i64 - 5) / 2);
            assert_eq!(c4_stdout(&cli), format!("{won} {score}\n"), "{w}x{h}");
        } else {
            assert_eq!(r.status, 422, "{path}: {}", r.body);
            let v = r.json();
            assert_eq!(v["limit"], "table", "{path}");
            assert_eq!(v["table_bytes"], 16 << 20);
            let message = v["error"].as_str().unwrap();
            assert!(
                message.starts_with(&format!("table too small: the {w}x{h} board needs"))
                    && message.ends_with("and this server's is 16 MiB (c4 serve --tt-size)"),
                "{message}"
            );
            let needed = v["needed_bytes"].as_u64().unwrap();
            assert!(needed > 16 << 20, "{message}");
            let stderr = c4_stderr_failing(&cli);
            assert!(
                stderr.contains(&format!("it needs at least {needed} bytes")),
                "{w}x{h}: the CLI says {stderr}"
            );
        }
    }
    assert_eq!(
        server.status()["answered"].as_u64(),
        Some(listed.len() as u64)
    );
}

/// One worker and one place in the queue: a third request is turned away
/// with 503 and Retry-After. Walking away from the running request and the
/// queued one cancels both: neither is answered.
#[test]
fn the_queue_is_bounded_and_gone_clients_are_cancelled() {
    // The 8x7 board has no book: its empty board takes far more than the
    // limit, so the first request is still searching while the others come.
    let server = Server::start(&[
        "--workers",
        "1",
        "--queue",
        "1",
        "--no-book",
        "--max-nodes",
        "50000000",
        "--max-seconds",
        "600",
    ]);
    let slow = "/api/analyze?moves=&width=8&height=7";
    let running = server.send("GET", slow, &[], b"");
    server.wait_for_status("the first request to start", Duration::from_secs(60), |s| {
        s["busy"] == 1
    });
    let queued = server.send("GET", slow, &[], b"");
    server.wait_for_status("the second request to wait", Duration::from_secs(60), |s| {
        s["queued"] == 1
    });
    let r = server.get(slow);
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert!(r.json()["error"].as_str().unwrap().starts_with("busy"));
    assert_eq!(server.status()["rejected"], 1);

    drop(queued);
    drop(running);
    let status = server.wait_for_status(
        "both requests to be cancelled",
        Duration::from_secs(900),
        |s| s["cancelled"] == 2,
    );
    assert_eq!(status["answered"], 0, "{status}");
    assert_eq!(status["limited"], 0, "{status}");
    assert_eq!(
        (status["busy"].as_u64(), status["queued"].as_u64()),
        (Some(0), Some(0))
    );
    // The worker is free again (the beginner needs no search).
    let r = server.get("/api/move?moves=4453&width=8&height=7&level=0");
    assert_eq!(r.status, 200, "{}", r.body);
}

/// How long after `start` the server closed `stream` (a read gives its end,
/// or a reset), waiting at most `limit` after `start`; `None` if it is still
/// open then. Bytes the server sends on the way are skipped.
fn closed_after(stream: &mut TcpStream, start: Instant, limit: Duration) -> Option<Duration> {
    let mut buf = [0u8; 4096];
    loop {
        let left = limit.checked_sub(start.elapsed())?;
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .expect("a timeout");
        match stream.read(&mut buf) {
            Ok(0) => return Some(start.elapsed()),
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::ConnectionReset) => {
                return Some(start.elapsed());
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return None;
            }
            Err(e) => panic!("reading: {e}"),
        }
    }
}

/// A keep-alive `GET path`, its answer read, the connection left open.
fn keep_alive_get(server: &Server, path: &str) -> (TcpStream, Response) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr);
    let mut stream = server.open(request.as_bytes());
    let response = Response::read_one(&mut stream);
    (stream, response)
}

/// Slow and idle clients are closed by the server when their timeout runs
/// out, not before, and a request being answered is not cut, however long
/// its search takes.
#[test]
fn slow_and_idle_clients_are_closed_within_the_timeouts() {
    let server = Server::start(&[
        "--workers",
        "1",
        "--no-book",
        "--max-nodes",
        "15000000",
        "--header-timeout",
        "1",
        "--idle-timeout",
        "2",
    ]);
    let header = Duration::from_secs(1);
    let idle = Duration::from_secs(2);
    // Timers never fire early; late by at most this on a busy machine.
    let margin = Duration::from_millis(1500);
    let server = &server;
    thread::scope(|scope| {
        // Each case: its name, the timeout it must meet, and how long the
        // server took to close it, counted from the start of that timeout.
        let cases: Vec<thread::ScopedJoinHandle<'_, (&str, Duration, Option<Duration>)>> = vec![
            scope.spawn(move || {
                let start = Instant::now();
                let mut silent = server.open(b"");
                (
                    "silent",
                    header,
                    closed_after(&mut silent, start, header + margin),
                )
            }),
            scope.spawn(move || {
                let start = Instant::now();
                let mut half = server.open(b"GET /api/info HTTP/1.1\r\nHost: x\r\n");
                (
                    "half a header",
                    header,
                    closed_after(&mut half, start, header + margin),
                )
            }),
            scope.spawn(move || {
                // A byte every 200 ms: busy, but the header never ends.
                let start = Instant::now();
                let mut trickle = server.open(b"G");
                for byte in b"ET /api/info HTTP/1.1\r\nHost: x\r\nX-Slow: 1".iter() {
                    thread::sleep(Duration::from_millis(200));
                    if trickle.write_all(&[*byte]).is_err() {
                        break;
                    }
                }
                (
                    "a byte at a time",
                    header,
                    closed_after(&mut trickle, start, header + margin),
                )
            }),
            scope.spawn(move || {
                let (mut kept, response) = keep_alive_get(server, "/api/info");
                assert_eq!(response.status, 200, "{}", response.body);
                let start = Instant::now();
                (
                    "idle after an answer",
                    idle,
                    closed_after(&mut kept, start, idle + margin),
                )
            }),
            scope.spawn(move || {
                // After an answer, a header begun 0.5 s later must end
                // within the header timeout of its first byte.
                let (mut kept, response) = keep_alive_get(server, "/api/info");
                assert_eq!(response.status, 200, "{}", response.body);
                thread::sleep(Duration::from_millis(500));
                let start = Instant::now();
                kept.write_all(b"GET /api/info HTT").expect("sends");
                (
                    "a later header",
                    header,
                    closed_after(&mut kept, start, header + margin),
                )
            }),
        ];
        // Meanwhile a search longer than the timeouts (or a 422 at its
        // node limit) is answered on a connection that sends nothing more.
        let long = server.get("/api/analyze?moves=&width=8&height=7");
        assert!(
            long.status == 200 || long.status == 422,
            "{}: {}",
            long.status,
            long.body
        );
        for case in cases {
            let (name, timeout, closed) = case.join().expect("the case runs");
            let closed = closed.unwrap_or_else(|| panic!("{name}: still open"));
            assert!(
                closed >= timeout - Duration::from_millis(10),
                "{name}: closed after {closed:?}, before its {timeout:?}"
            );
        }
    });
    let status = server.status();
    assert_eq!(status["connections_timed_out"], 5, "{status}");
}

/// Under an open-file limit of 256 the default cap is below it; a larger
/// --max-connections is lowered with a warning. Twice the cap in silent or
/// half-header connections (which would wait 30 s for their timeout) does
/// not keep real requests out: they are answered at once, the oldest
/// waiting connections making room.
#[test]
fn the_connection_cap_keeps_requests_answered_under_a_file_limit() {
    let limited = Launch {
        file_limit: Some(256),
        keep_stderr: true,
    };
    let server = Server::launch(&["--workers", "1"], limited);
    let cap = server.get_json("/api/info")["max_connections"]
        .as_u64()
        .unwrap();
    assert!(cap < 256, "the default cap {cap} under ulimit -n 256");
    drop(server);

    let mut server = Server::launch(
        &[
            "--workers",
            "1",
            "--header-timeout",
            "30",
            "--max-connections",
            "100000",
        ],
        limited,
    );
    let info = server.get_json("/api/info");
    assert_eq!(info["max_connections"], cap, "lowered to the default's cap");
    let cap = cap as usize;
    let waiting: Vec<TcpStream> = (0..2 * cap)
        .map(|i| {
            server.open(if i % 2 == 0 {
                b""
            } else {
                b"GET / HTTP/1.1\r\n"
            })
        })
        .collect();
    for moves in ["4453", "", "44", "2252576253462244111563365343671351441"] {
        let path = format!("/api/analyze?{}", query(moves, ""));
        let start = Instant::now();
        let r = server.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.body, c4_stdout(&["analyze", "--json", moves]));
        let took = start.elapsed();
        assert!(
            took < Duration::from_secs(5),
            "{path}: {took:?}, not at once"
        );
    }
    let status = server.status();
    let open = status["connections"].as_u64().unwrap() as usize;
    assert!(open <= cap, "{status}");
    let evicted = status["connections_evicted"].as_u64().unwrap() as usize;
    assert!(evicted >= cap, "{status}");
    assert_eq!(status["connections_timed_out"], 0, "{status}");
    drop(waiting);
    server.signal(libc::SIGTERM);
    let (exit, _) = server.wait_exit(Duration::from_secs(10)).expect("exits");
    assert_eq!(exit.code(), Some(0));
    let stderr = server.stderr();
    assert!(
        stderr.contains(&format!(
            "--max-connections 100000 is more than the open-file limit (256 files, ulimit -n) \
             allows: at most {cap} connections"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// SIGTERM and SIGINT stop a server in the middle of a long search: it
/// exits 0 within about a second, the search's client gets a whole 503,
/// and an idle connection is closed.
#[test]
fn sigterm_and_sigint_stop_a_search_and_exit_0() {
    for (name, signal) in [("SIGTERM", libc::SIGTERM), ("SIGINT", libc::SIGINT)] {
        let mut server = Server::start(&["--workers", "1", "--no-book", "--max-seconds", "600"]);
        // The empty 7x6 board without a book takes minutes.
        let mut search = server.send("GET", "/api/analyze?moves=", &[], b"");
        let (mut idle, _) = keep_alive_get(&server, "/api/info");
        server.wait_for_status("the search to start", Duration::from_secs(60), |s| {
            s["busy"] == 1
        });
        server.signal(signal);
        let (exit, took) = server
            .wait_exit(Duration::from_secs(10))
            .unwrap_or_else(|| panic!("{name}: still running"));
        assert_eq!(exit.code(), Some(0), "{name}");
        assert!(
            took < Duration::from_secs(3),
            "{name}: exited after {took:?}"
        );
        let mut raw = Vec::new();
        search.read_to_end(&mut raw).expect("the answer");
        let r = Response::parse(&raw);
        assert_eq!(r.status, 503, "{name}: {}", r.body);
        assert!(
            r.json()["error"]
                .as_str()
                .unwrap()
                .starts_with("the server is stopping"),
            "{name}: {}",
            r.body
        );
        assert!(
            closed_after(&mut idle, Instant::now(), Duration::from_secs(1)).is_some(),
            "{name}: the idle connection is still open"
        );
    }
}

/// The minute now in UTC, `YYYY-MM-DDTHH:MM`, from `date`.
fn utc_minute() -> String {
    let out = Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M"])
        .output()
        .expect("date runs");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// With --log, each request is one line on stderr: the time, the method
/// and target, the status, the milliseconds and the nodes searched (at
/// least those `c4 solve --stats` counts for the score alone).
#[test]
fn the_log_has_one_line_per_request() {
    let mut server = Server::launch(
        &["--workers", "1", "--no-book", "--log"],
        Launch {
            file_limit: None,
            keep_stderr: true,
        },
    );
    let moves = "2252576253462244111563365343671351441";
    let solve = format!("/api/solve?moves={moves}");
    let before = utc_minute();
    assert_eq!(server.get(&solve).status, 200);
    assert_eq!(server.get("/api/info").status, 200);
    assert_eq!(server.get("/nope?x=1").status, 404);
    let after = utc_minute();
    server.signal(libc::SIGTERM);
    let (exit, _) = server.wait_exit(Duration::from_secs(10)).expect("exits");
    assert_eq!(exit.code(), Some(0));
    let stderr = server.stderr();
    let lines: Vec<Vec<&str>> = stderr
        .lines()
        .filter(|l| !l.starts_with("c4 serve"))
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    let cli: Vec<String> = c4_stdout(&["solve", "--stats", "--no-book", moves])
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let score_nodes: u64 = cli[2].parse().unwrap();
    assert!(score_nodes > 0);
    for (fields, (target, status)) in lines.iter().zip([
        (solve.as_str(), "200"),
        ("/api/info", "200"),
        ("/nope?x=1", "404"),
    ]) {
        assert_eq!(fields.len(), 8, "{fields:?}");
        let time = fields[0];
        assert!(
            time.len() == 24 && time.ends_with('Z') && time.as_bytes()[19] == b'.',
            "{time}"
        );
        assert!(
            time.starts_with(&before) || time.starts_with(&after),
            "{time}"
        );
        assert_eq!(&fields[1..4], ["GET", target, status], "{fields:?}");
        let millis: f64 = fields[4].parse().expect("milliseconds");
        assert!(millis >= 0.0);
        assert_eq!((fields[5], fields[7]), ("ms", "nodes"));
        let nodes: u64 = fields[6].parse().expect("nodes");
        if target == solve {
            assert!(nodes >= score_nodes, "{nodes} < {score_nodes}");
        } else {
            assert_eq!(nodes, 0, "{fields:?}");
        }
    }
}
