//! The page of `c4 serve` in a real browser: headless Chromium driven by
//! chromedriver over WebDriver. It opens the page, clicks columns, reads the
//! scores shown and checks them against `c4 analyze --json`, steps through
//! the perfect-play line, plays a game against level 0, and takes
//! screenshots (a desktop one and a phone-sized one). It reviews a game
//! too: the verdicts shown, recomputed here from the solver's scores, the
//! mistakes and blunders marked on the chart, a click on the chart going to
//! that position.
//!
//! The same page as the static site (`scripts/build-site.sh`: c4 in
//! WebAssembly in a Web Worker) is opened from a plain static file server
//! and checked the same way, against `c4 analyze` and a standard-set line.
//! The site is read from `C4_SITE_DIR`, by default `target/site` (where
//! `.ci/run` builds it); when it is not built, that test prints one line
//! and passes, unless `CI` is set.
//!
//! Chromium and chromedriver come from Debian's `chromium` and
//! `chromium-driver` packages (`.ci/run` installs them). Without them the
//! tests print one line and pass, unless `CI` is set. The screenshots go
//! to `target/serve-browser/`; with `C4_UPDATE_SCREENSHOT=1` the desktop
//! ones also replace `docs/screenshot.png`, `docs/site.png` and
//! `docs/review.png`, the README's.

mod common;
mod serve_support;

use std::future::Future;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use c4::{Position, Solver};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use serve_support::{Server, c4_stdout};

use common::sets::standard_sets;

/// Where a program may be installed.
fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([
            PathBuf::from("/usr/bin"),
            PathBuf::from("/usr/lib/chromium"),
        ])
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver, on a port of its own; killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start(program: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "chromedriver did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Clicks the element `locator` finds.
async fn click(client: &Client, locator: Locator<'_>) {
    let element = client
        .find(locator)
        .await
        .unwrap_or_else(|e| panic!("no element {locator:?}: {e}"));
    element
        .click()
        .await
        .unwrap_or_else(|e| panic!("clicking {locator:?}: {e}"));
}

/// The text of the element `locator` finds.
async fn text_of(client: &Client, locator: Locator<'_>) -> String {
    client.find(locator).await.unwrap().text().await.unwrap()
}

/// Runs `script` in the page and returns its value.
async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .expect("the script runs")
}

/// Waits (at most `limit`) until `condition`, a JavaScript expression, is
/// true in the page; panics naming `what` after that.
async fn wait_until(client: &Client, what: &str, condition: &str, limit: Duration) {
    let start = Instant::now();
    let script = format!("return !!({condition});");
    loop {
        if js(client, &script).await == Value::Bool(true) {
            return;
        }
        assert!(
            start.elapsed() < limit,
            "waited {limit:?} for {what} ({condition})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the page has no request under way.
async fn settle(client: &Client, what: &str) {
    wait_until(
        client,
        what,
        "document.body.dataset.busy === '0'",
        Duration::from_secs(300),
    )
    .await;
}

/// Waits until the page shows it is analysing the position of address
/// `hash` (after a page load, "Reading the position…"; after a move,
/// "Scoring every column…"), a search too long to end by itself while the
/// test acts. Only then has the Stop button come to stay: the sign of an
/// earlier request (the worker starting after a page load, or the position
/// before) hides when that request ends or is dropped, and a click in that
/// gap finds no button to press (seen on a loaded machine).
async fn wait_for_analysis(client: &Client, hash: &str) {
    wait_until(
        client,
        "the sign that the position is being analysed",
        &format!(
            "location.hash === '{hash}' && !document.getElementById('thinking').hidden \
             && ['Reading the position', 'Scoring every column'].some(label => \
                document.getElementById('thinking-text').textContent.startsWith(label))"
        ),
        Duration::from_secs(60),
    )
    .await;
}

/// The moves in the page's address.
async fn hash(client: &Client) -> String {
    js(client, "return decodeURIComponent(location.hash.slice(1));")
        .await
        .as_str()
        .unwrap()
        .to_owned()
}

/// Clicks column `col` (0-based) of the board.
async fn click_column(client: &Client, col: usize) {
    client
        .find(Locator::Css(&format!(
            "#board g.column[data-col=\"{col}\"]"
        )))
        .await
        .expect("the column")
        .click()
        .await
        .expect("a click");
}

/// The scores shown above the columns, as numbers (`None` where none is
/// shown), read from the text a person sees ("+2", "0", "−3").
async fn shown_scores(client: &Client, width: usize) -> Vec<Option<i64>> {
    let shown = js(
        client,
        "return [...document.querySelectorAll('#board text.score-text')]\
         .map(t => [Number(t.dataset.col), t.textContent]);",
    )
    .await;
    let mut scores = vec![None; width];
    for pair in shown.as_array().unwrap() {
        let col = pair[0].as_u64().unwrap() as usize;
        let text = pair[1]
            .as_str()
            .unwrap()
            .replace('\u{2212}', "-")
            .replace('+', "");
        scores[col] = Some(text.parse().unwrap_or_else(|_| panic!("a score: {text:?}")));
    }
    scores
}

/// The scores and best move `c4 analyze --json` gives for `moves`.
fn cli_analysis(moves: &str) -> Value {
    serde_json::from_str(&c4_stdout(&["analyze", "--json", moves])).unwrap()
}

/// Checks the scores, the best-move mark and the sentence the page shows for
/// its current position against `c4 analyze`.
async fn check_scores(client: &Client, moves: &str) {
    let cli = cli_analysis(moves);
    let expected: Vec<Option<i64>> = cli["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::as_i64)
        .collect();
    assert_eq!(
        shown_scores(client, 7).await,
        expected,
        "position {moves:?}"
    );
    let best = js(
        client,
        "const b = document.querySelector('#board .score-pill.best');\
         return b ? Number(b.parentNode.dataset.col) + 1 : null;",
    )
    .await;
    assert_eq!(best, cli["best_move"], "best move of {moves:?}");
    let sentence = text_of(client, Locator::Id("sentence")).await;
    let score = cli["score"].as_i64().unwrap();
    if score != 0 {
        let winner = if (score > 0) == (cli["side_to_move"] == "X") {
            "Red"
        } else {
            "Yellow"
        };
        let expected = if score > 0 {
            format!("{winner} to move and wins on move {}", cli["win_on_move"])
        } else {
            format!("{winner} wins on move {}", cli["win_on_move"])
        };
        assert!(
            sentence.contains(&expected),
            "{sentence:?} should say {expected:?}"
        );
    } else {
        assert!(sentence.contains("draw"), "{sentence:?}");
    }
}

/// Waits for the perfect-play line and checks it is `c4 solve --pv`'s.
async fn check_line(client: &Client, moves: &str) {
    wait_until(
        client,
        "the line",
        "document.querySelectorAll('#pv button').length > 0",
        Duration::from_secs(300),
    )
    .await;
    let solved: Value =
        serde_json::from_str(&c4_stdout(&["solve", "--json", "--pv", moves])).unwrap();
    let pv = js(
        client,
        "return [...document.querySelectorAll('#pv button')].map(b => b.textContent).join('');",
    )
    .await;
    assert_eq!(pv, solved["pv"], "the line of {moves:?}");
}

/// Saves a screenshot of the top of the page under `target/serve-browser/`
/// (the pointer moved off the board first) and returns its path.
async fn screenshot(client: &Client, name: &str) -> PathBuf {
    click(client, Locator::Css("h1")).await;
    js(client, "window.scrollTo(0, 0); return 0;").await;
    // A frame or two for the pointer's move to show.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let png = client.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-browser");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, &png).unwrap();
    path
}

/// Whether `CI` is set: then a missing tool or site is a failure.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty())
}

/// Chromium and chromedriver, or `None` after printing why the test is
/// skipped (a failure when `CI` is set).
fn browser_programs() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program(&["chromium", "chromium-browser"]);
    let driver = find_program(&["chromedriver"]);
    let (Some(chromium), Some(driver)) = (chromium, driver) else {
        assert!(
            !in_ci(),
            "CI is set but chromium or chromedriver is missing (apt-get install chromium chromium-driver)"
        );
        println!(
            "skipped: chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
        );
        return None;
    };
    Some((chromium, driver))
}

/// Runs `run` on a headless Chromium of its own (a fresh profile), closing
/// the browser afterwards, whether `run` passed or panicked.
fn in_browser<F, Fut>(chromium: &Path, driver: &Path, run: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let driver = Driver::start(driver);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let profile = std::env::temp_dir().join(format!(
            "c4-chromium-{}-{}",
            std::process::id(),
            driver.port
        ));
        let _ = std::fs::remove_dir_all(&profile);
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": chromium,
                "args": [
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-dev-shm-usage",
                    "--hide-scrollbars",
                    "--force-device-scale-factor=1",
                    "--window-size=1280,1000",
                    format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
            .expect("chromedriver accepts a WebDriver client");
        // Run in a task, so that a failure still closes the browser.
        let result = tokio::spawn(run(client.clone())).await;
        let _ = client.close().await;
        let _ = std::fs::remove_dir_all(&profile);
        if let Err(e) = result {
            std::panic::resume_unwind(e.into_panic());
        }
    });
}

#[test]
fn the_page_in_a_real_browser() {
    let Some((chromium, driver)) = browser_programs() else {
        return;
    };
    // A time limit well above what its requests take on a loaded machine
    // (the review of a 37-move game took 3 s of the default 5 under a
    // load of 16 on 2 cores).
    let server = Arc::new(Server::start(&["--workers", "2", "--max-seconds", "120"]));
    // A server whose requests stop at 50M nodes, for a position that takes
    // far more (the 8x7 board has no book).
    let slow = Arc::new(Server::start(&[
        "--workers",
        "1",
        "--max-nodes",
        "50000000",
        "--max-seconds",
        "600",
    ]));
    in_browser(&chromium, &driver, |client| run_page(client, server, slow));
}

/// What the browser does.
async fn run_page(client: Client, server: Arc<Server>, slow: Arc<Server>) {
    let client = &client;
    client.set_window_size(1280, 1000).await.unwrap();

    // 1. Open the page: the empty board, scored from the book.
    client.goto(&server.url("/")).await.unwrap();
    wait_until(
        client,
        "the board",
        "document.querySelectorAll('#board g.column').length === 7",
        Duration::from_secs(60),
    )
    .await;
    settle(client, "the first analysis").await;
    wait_until(
        client,
        "the line",
        "document.querySelectorAll('#pv button').length > 0",
        Duration::from_secs(300),
    )
    .await;
    check_scores(client, "").await;

    // 2. Click columns 4, 3, 5: the address follows.
    for (n, col) in [3, 2, 4].into_iter().enumerate() {
        click_column(client, col).await;
        settle(client, "an analysis").await;
        assert_eq!(hash(client).await.len(), n + 1);
    }
    assert_eq!(hash(client).await, "435");

    // 3. The scores shown are `c4 analyze`'s (wins, draws and losses here);
    // the line is `c4 solve --pv`'s.
    check_scores(client, "435").await;
    check_line(client, "435").await;
    let path = screenshot(client, "desktop.png").await;
    if std::env::var("C4_UPDATE_SCREENSHOT").is_ok_and(|v| v == "1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshot.png");
        std::fs::copy(&path, docs).unwrap();
    }
    click_column(client, 2).await;
    settle(client, "an analysis").await;
    assert_eq!(hash(client).await, "4353");
    check_scores(client, "4353").await;
    check_line(client, "4353").await;

    // Step through the line: its moves appear ahead of the position.
    click(client, Locator::Id("pv-next")).await;
    click(client, Locator::Id("pv-next")).await;
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('#board .disc.preview').length;"
        )
        .await,
        2
    );
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('#board .disc:not(.preview)').length;"
        )
        .await,
        4
    );
    click(client, Locator::Id("pv-first")).await;
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('#board .disc.preview').length;"
        )
        .await,
        0
    );

    // Undo and redo.
    click(client, Locator::Id("undo")).await;
    settle(client, "undo").await;
    assert_eq!(hash(client).await, "435");
    check_scores(client, "435").await;
    click(client, Locator::Id("redo")).await;
    settle(client, "redo").await;
    assert_eq!(hash(client).await, "4353");

    // A position typed in, with a mistake: the server's reason is shown.
    let input = client.find(Locator::Id("moves")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys("44x").await.unwrap();
    click(client, Locator::Css("#position-form button[type=submit]")).await;
    settle(client, "the bad position").await;
    let error = text_of(client, Locator::Id("position-error")).await;
    assert_eq!(error, "character 3 ('x') is not a column (1-7)");
    assert_eq!(hash(client).await, "4353", "a bad position changes nothing");
    // Moves and what could be a score: refused too, never read as `44`.
    let input = client.find(Locator::Id("moves")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys("44 53").await.unwrap();
    click(client, Locator::Css("#position-form button[type=submit]")).await;
    settle(client, "the position with a space").await;
    let error = text_of(client, Locator::Id("position-error")).await;
    assert_eq!(error, "character 3 (a space) is not a column (1-7)");
    assert_eq!(hash(client).await, "4353", "a bad position changes nothing");

    // A position carried in the address.
    client.goto(&server.url("/#3344")).await.unwrap();
    wait_until(
        client,
        "the address's position",
        "location.hash === '#3344' && document.querySelectorAll('#board .disc').length === 4",
        Duration::from_secs(60),
    )
    .await;
    settle(client, "its analysis").await;
    check_scores(client, "3344").await;

    // 4. The review of a game opened from the address, asked for with the
    // button: what the page shows is what /api/review answers.
    client
        .goto(&server.url(&format!("/#{REVIEW_GAME}")))
        .await
        .unwrap();
    wait_until(
        client,
        "the game to review",
        &format!(
            "document.querySelectorAll('#board .disc').length === {}",
            REVIEW_GAME.len()
        ),
        Duration::from_secs(60),
    )
    .await;
    settle(client, "its analysis").await;
    click(client, Locator::Id("review-run")).await;
    let api = {
        let server = Arc::clone(&server);
        tokio::task::spawn_blocking(move || {
            server.get_json(&format!("/api/review?moves={REVIEW_GAME}"))
        })
        .await
        .unwrap()
    };
    check_review(client, REVIEW_GAME, Some(&api), "review.png").await;

    // 5. A game against level 0: Red wins.
    win_against_level_zero(client).await;
    screenshot(client, "game.png").await;

    // 6. A phone-sized screen: nothing wider than the screen.
    client.set_window_size(390, 844).await.unwrap();
    client.goto(&server.url("/#4453")).await.unwrap();
    wait_until(
        client,
        "the phone page",
        "document.querySelectorAll('#board .disc').length === 4",
        Duration::from_secs(60),
    )
    .await;
    settle(client, "its analysis").await;
    check_scores(client, "4453").await;
    let fits = js(
        client,
        "return document.documentElement.scrollWidth <= window.innerWidth;",
    )
    .await;
    assert_eq!(fits, true, "the page is wider than a phone's screen");
    screenshot(client, "phone.png").await;

    // 7. A slow position: the page says it is thinking, and Stop stops it,
    // on the page and on the server.
    client.set_window_size(1280, 1000).await.unwrap();
    client.goto(&slow.url("/#8x7:")).await.unwrap();
    wait_for_analysis(client, "#8x7:").await;
    let thinking = text_of(client, Locator::Id("thinking")).await;
    assert!(thinking.contains("Stop"), "{thinking:?}");
    click(client, Locator::Id("stop")).await;
    settle(client, "the stop").await;
    let shown = text_of(client, Locator::Id("sentence")).await;
    assert_eq!(shown, "Stopped.");
    // The position is the one asked for, without its scores.
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('#board g.column').length;"
        )
        .await,
        8
    );
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('#board text.score-text').length;"
        )
        .await,
        0
    );
    assert_eq!(
        js(client, "return document.getElementById('thinking').hidden;").await,
        true
    );
    let status = tokio::task::spawn_blocking(move || {
        slow.wait_for_status(
            "the request to be cancelled",
            Duration::from_secs(600),
            |s| s["cancelled"] == 1,
        )
    })
    .await
    .unwrap();
    assert_eq!(status["limited"], 0, "{status}");
}

/// A server whose requests stop at 20M nodes: a board whose empty board
/// takes more (12x4) is played without scores, the page saying why, with
/// the board, the menu and the address all 12x4; and a review link brings
/// the review into view on a desktop window and a phone's.
#[test]
fn boards_beyond_the_limits_and_review_links() {
    let Some((chromium, driver)) = browser_programs() else {
        return;
    };
    // No time limit to speak of: the node limit is the one reached.
    let server = Arc::new(Server::start(&[
        "--workers",
        "1",
        "--max-nodes",
        "20000000",
        "--max-seconds",
        "600",
    ]));
    in_browser(&chromium, &driver, |client| async move {
        let client = &client;
        client.set_window_size(1280, 1000).await.unwrap();
        let url = |path: &str| server.url(&format!("/{path}"));
        check_board_beyond_limits(client, &url, "20,000,000 nodes").await;
        check_review_link(client, &url).await;
    });
}

/// Opens `#12x4:` (`url` gives the page's address of a path), where the
/// back end cannot score the empty board within its limits (`limit`, as
/// the page words it): the page plays 12x4 all the same, says in words
/// that the scores are beyond the limits, and the board, the menu and the
/// address agree, after a move too. Then the same from the menu, from a
/// 7x6 position. The menu puts 12x4 among the bigger boards, 7x6 and 5x5
/// among those scored at once.
async fn check_board_beyond_limits(
    client: &Client,
    url: &(dyn Fn(&str) -> String + Sync),
    limit: &str,
) {
    let beyond = |hash: &str, discs: usize| {
        format!(
            "location.hash === '{hash}' && document.body.dataset.busy === '0' && \
             document.querySelectorAll('#board g.column').length === 12 && \
             document.querySelectorAll('#board .disc').length === {discs} && \
             document.querySelector('#sentence .notice') !== null"
        )
    };
    let agree = async |hash: &str| {
        assert_eq!(
            js(
                client,
                "return document.getElementById('board-size').value;"
            )
            .await,
            "12x4",
            "the menu at {hash}"
        );
        let notice = text_of(client, Locator::Css("#sentence .notice")).await;
        assert!(
            notice.starts_with("This 12 × 4 position cannot be scored within")
                && notice.contains(limit)
                && notice.contains("play on without scores"),
            "{notice:?}"
        );
        let scores = js(
            client,
            "return document.querySelectorAll('#board text.score-text').length;",
        )
        .await;
        assert_eq!(scores, 0, "no score is shown at {hash}");
    };
    client.goto(&url("#12x4:")).await.unwrap();
    let limit_wait = Duration::from_secs(120);
    wait_until(
        client,
        "12x4 without scores",
        &beyond("#12x4:", 0),
        limit_wait,
    )
    .await;
    agree("#12x4:").await;
    let path = screenshot(client, "beyond-limits.png").await;
    println!("screenshot: {}", path.display());
    // A move plays on 12x4.
    click_column(client, 5).await;
    wait_until(client, "a move on 12x4", &beyond("#12x4:6", 1), limit_wait).await;
    agree("#12x4:6").await;

    // The menu: which boards are scored at once.
    let group_of = |board: &str| {
        format!(
            "return document.querySelector('#board-size option[value=\"{board}\"]')\
             .parentNode.dataset.quick;"
        )
    };
    for (board, quick) in [("12x4", "0"), ("7x6", "1"), ("5x5", "1"), ("8x7", "0")] {
        assert_eq!(js(client, &group_of(board)).await, quick, "{board}");
    }

    // From a 7x6 position, 12 x 4 chosen in the menu.
    client.goto(&url("#4453")).await.unwrap();
    wait_until(
        client,
        "the 7x6 position",
        "location.hash === '#4453' && document.querySelectorAll('#board .disc').length === 4 \
         && document.body.dataset.busy === '0'",
        Duration::from_secs(60),
    )
    .await;
    client
        .find(Locator::Id("board-size"))
        .await
        .unwrap()
        .select_by_value("12x4")
        .await
        .unwrap();
    wait_until(
        client,
        "12x4 from the menu",
        &beyond("#12x4:", 0),
        limit_wait,
    )
    .await;
    agree("#12x4:").await;
    click_column(client, 11).await;
    wait_until(client, "a move on 12x4", &beyond("#12x4:c", 1), limit_wait).await;
    agree("#12x4:c").await;
}

/// Opens `?review#MOVES` on a desktop window and a phone-sized one: once
/// the review is shown, its card is in view (its top in the window, near
/// its top unless the whole card fits below).
async fn check_review_link(client: &Client, url: &(dyn Fn(&str) -> String + Sync)) {
    for (width, height) in [(1280, 657), (390, 844)] {
        client.set_window_size(width, height).await.unwrap();
        client.goto(&url("")).await.unwrap();
        client
            .goto(&url(&format!("?review#{REVIEW_GAME}")))
            .await
            .unwrap();
        wait_until(
            client,
            "the review",
            &format!(
                "!document.getElementById('review-body').hidden && \
                 document.querySelectorAll('#review-moves .rv-move[data-verdict]').length === {}",
                REVIEW_GAME.len()
            ),
            Duration::from_secs(300),
        )
        .await;
        settle(client, "the review").await;
        let place = js(
            client,
            "const r = document.getElementById('review').getBoundingClientRect();\
             return [r.top, r.bottom, window.innerHeight, window.scrollY];",
        )
        .await;
        let [top, bottom, window, scrolled] =
            [0, 1, 2, 3].map(|i| place[i].as_f64().expect("a number"));
        assert!(
            top >= -1.0 && (top <= window / 4.0 || bottom <= window),
            "{width}x{height}: the review card spans {top}..{bottom} in a window of {window} \
             (scrolled {scrolled})"
        );
        assert!(
            scrolled > 0.0,
            "{width}x{height}: the page was scrolled to the review"
        );
        let png = client.screenshot().await.expect("a screenshot");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("review-link-{width}x{height}.png")), &png).unwrap();
    }
    client.set_window_size(1280, 1000).await.unwrap();
}

/// A game against level 0, Red (first) played perfectly by this test (with
/// c4's own solver): c4's replies are legal, and Red wins.
async fn win_against_level_zero(client: &Client) {
    client
        .find(Locator::Id("play-side"))
        .await
        .unwrap()
        .select_by_value("X")
        .await
        .unwrap();
    client
        .find(Locator::Id("play-level"))
        .await
        .unwrap()
        .select_by_value("0")
        .await
        .unwrap();
    click(client, Locator::Id("new-game")).await;
    settle(client, "a new game").await;
    assert_eq!(hash(client).await, "");
    let mut solver = Solver::<7, 6>::with_table_bytes(64 << 20).unwrap();
    if let Some(Ok(book)) = c4::book::builtin::builtin::<7, 6, u64>() {
        solver.set_book(Some(std::sync::Arc::new(book)));
    }
    let mut replies = 0;
    loop {
        let moves = hash(client).await;
        let pos = Position::<7, 6>::parse(&moves).unwrap_or_else(|e| panic!("{moves}: {e}"));
        if pos.is_game_over() {
            break;
        }
        assert_eq!(pos.moves_played() % 2, 0, "Red to move in {moves:?}");
        let (col, _) = solver.best_move(&pos).unwrap();
        click_column(client, col).await;
        let before = moves.len();
        wait_until(
            client,
            "c4's reply",
            &format!("document.body.dataset.busy === '0' && (decodeURIComponent(location.hash).length - 1 >= {} || /win|draw/i.test(document.getElementById('game-status').textContent))", before + 2),
            Duration::from_secs(120),
        )
        .await;
        replies += 1;
        assert!(replies <= 21, "the game should be over");
    }
    let status = text_of(client, Locator::Id("game-status")).await;
    assert!(status.starts_with("You win"), "{status:?}");
    let moves = hash(client).await;
    let pos = Position::<7, 6>::parse(&moves).unwrap();
    assert!(
        pos.is_won() && pos.moves_played() % 2 == 1,
        "Red won: {moves}"
    );
    assert_eq!(
        js(
            client,
            "return document.querySelectorAll('#board .win-ring').length >= 4;"
        )
        .await,
        true
    );
}

/// The game the review is checked on (7x6): Red's first move and Yellow's
/// fifth are mistakes, some moves are slower, Yellow's tenth throws a win
/// away, and Red then wins with perfect play (`c4 solve --pv 3433273653`).
const REVIEW_GAME: &str = "3433273653426566441443222255556611111";

/// The verdict of every move of `line` on 7x6, recomputed here from the
/// scores `Solver::analyze` gives for the position before each move (not
/// from the review's code): *best* keeps the best score, *slower* keeps
/// its sign, *blunder* turns a win into a loss, *mistake* any other loss of
/// result.
fn witness_verdicts(line: &str) -> Vec<&'static str> {
    let mut solver = Solver::<7, 6>::with_table_bytes(64 << 20).unwrap();
    if let Some(Ok(book)) = c4::book::builtin::builtin::<7, 6, u64>() {
        solver.set_book(Some(std::sync::Arc::new(book)));
    }
    (0..line.len())
        .map(|i| {
            let pos = Position::<7, 6>::parse(&line[..i]).unwrap();
            let col = line[i..=i].parse::<usize>().unwrap() - 1;
            let scores = solver.analyze(&pos);
            let best = scores.iter().flatten().copied().max().unwrap();
            let played = scores[col].expect("a legal move");
            common::verdict(best.into(), played.into())
        })
        .collect()
}

/// The plies (moves into the line) of the moves marked `verdict` on the
/// chart.
async fn chart_marks(client: &Client, verdict: &str) -> Vec<u64> {
    let marks = js(
        client,
        &format!(
            "return [...document.querySelectorAll('#review-chart .chart-point.mark.{verdict}')]\
             .map(c => Number(c.dataset.ply));"
        ),
    )
    .await;
    marks
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

/// Checks the review the page shows of `line` (7x6), already asked for:
/// the verdicts in the move list are the witness's (and `api`'s, the
/// back end's own answer, when given), the mistakes and blunders are
/// marked on the chart at their moves, and a click on a point of the chart
/// or on a move of the list puts that position on the board. Saves a
/// screenshot of the review as `name`.
async fn check_review(client: &Client, line: &str, api: Option<&Value>, name: &str) {
    wait_until(
        client,
        "the review",
        &format!(
            "!document.getElementById('review-body').hidden && \
             document.querySelectorAll('#review-moves .rv-move[data-verdict]').length === {}",
            line.len()
        ),
        Duration::from_secs(300),
    )
    .await;
    settle(client, "the review").await;
    let shown = js(
        client,
        "return [...document.querySelectorAll('#review-moves .rv-move[data-verdict]')]\
         .map(b => b.dataset.verdict);",
    )
    .await;
    let witness = witness_verdicts(line);
    assert_eq!(shown, json!(witness), "the verdicts of {line}");
    if let Some(api) = api {
        let answered: Vec<&str> = api["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(shown, json!(answered), "the API's verdicts of {line}");
    }
    for verdict in ["mistake", "blunder"] {
        let expected: Vec<u64> = (1..=line.len() as u64)
            .filter(|&ply| witness[ply as usize - 1] == verdict)
            .collect();
        assert_eq!(
            chart_marks(client, verdict).await,
            expected,
            "the {verdict}s on the chart of {line}"
        );
    }
    assert!(
        witness.contains(&"blunder") && witness.contains(&"mistake"),
        "the game {line} should have a mistake and a blunder to show"
    );
    // The full line is on the board (the review started from it).
    assert_eq!(hash(client).await, line);

    // A click on a point of the chart: that position.
    for ply in [5, 0, line.len() - 1] {
        click(
            client,
            Locator::Css(&format!("#review-chart rect.chart-hit[data-ply=\"{ply}\"]")),
        )
        .await;
        wait_until(
            client,
            "the position of the point",
            &format!(
                "document.getElementById('review').dataset.ply === '{ply}' && \
                 document.querySelectorAll('#board .disc').length === {ply}"
            ),
            Duration::from_secs(60),
        )
        .await;
        assert_eq!(hash(client).await, &line[..ply], "point {ply}");
        let current = js(
            client,
            "const c = document.querySelector('#review-chart .chart-point.current');\
             return c ? Number(c.dataset.ply) : null;",
        )
        .await;
        assert_eq!(current, json!(ply), "the point marked as the board's");
        settle(client, "its analysis").await;
    }
    // Redo replays the rest of the reviewed game.
    click(client, Locator::Id("redo")).await;
    settle(client, "redo").await;
    assert_eq!(hash(client).await, line);

    // A move of the list: the first blunder, the position after it.
    let blunder = witness.iter().position(|&v| v == "blunder").unwrap() + 1;
    click(
        client,
        Locator::Css(&format!("#review-moves .rv-move[data-ply=\"{blunder}\"]")),
    )
    .await;
    wait_until(
        client,
        "the position of the move",
        &format!("document.querySelectorAll('#board .disc').length === {blunder}"),
        Duration::from_secs(60),
    )
    .await;
    settle(client, "its analysis").await;
    assert_eq!(hash(client).await, &line[..blunder]);
    let mark = text_of(
        client,
        Locator::Css(&format!("#review-moves .rv-move[data-ply=\"{blunder}\"]")),
    )
    .await;
    assert!(
        mark.ends_with("??"),
        "a blunder is marked ?? in the list: {mark:?}"
    );

    // The picture of the review.
    let review = client.find(Locator::Id("review")).await.unwrap();
    js(
        client,
        "document.getElementById('review').scrollIntoView(); return 0;",
    )
    .await;
    click(client, Locator::Css("#review h2")).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let png = review.screenshot().await.expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-browser");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), &png).unwrap();
    if name == "review.png" && std::env::var("C4_UPDATE_SCREENSHOT").is_ok_and(|v| v == "1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/review.png");
        std::fs::write(docs, &png).unwrap();
    }
}

/// Where the static site is: `C4_SITE_DIR`, or `target/site`.
fn site_dir() -> PathBuf {
    match std::env::var_os("C4_SITE_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/site"),
    }
}

/// A plain static file server on loopback for `root`: GET of a file, its
/// content type from its extension, nothing else; serves until the test
/// process ends. Gives its port.
fn serve_static(root: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let root = root.clone();
            std::thread::spawn(move || answer_static(&root, stream));
        }
    });
    port
}

/// Answers one request of [`serve_static`] and closes the connection.
fn answer_static(root: &Path, mut stream: TcpStream) {
    let mut request = String::new();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The rest of the header, up to its blank line.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let name = if path == "/" {
        "index.html"
    } else {
        &path[1..]
    };
    let file = (!name.contains("..")).then(|| std::fs::read(root.join(name)).ok());
    let (status, body, kind) = match file.flatten() {
        Some(body) => {
            let kind = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                Some("css") => "text/css; charset=utf-8",
                Some("svg") => "image/svg+xml",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            ("200 OK", body, kind)
        }
        None => ("404 Not Found", b"not found".to_vec(), "text/plain"),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

#[test]
fn the_static_site_in_a_real_browser() {
    let site = site_dir();
    if !site.join("index.html").is_file() || !site.join("c4_wasm_bg.wasm").is_file() {
        assert!(
            !in_ci(),
            "CI is set but the static site is not built in {} (scripts/build-site.sh)",
            site.display()
        );
        println!(
            "skipped: the static site is not built in {} (scripts/build-site.sh, or set C4_SITE_DIR)",
            site.display()
        );
        return;
    }
    let Some(sets) = standard_sets() else {
        return;
    };
    // A Middle-Medium line: its score, from the set, is the best column's.
    let line = sets.load("Test_L2_R2", Some(1)).remove(0);
    let Some((chromium, driver)) = browser_programs() else {
        return;
    };
    let port = serve_static(site);
    let url = move |path: &str| format!("http://127.0.0.1:{port}/{path}");
    in_browser(&chromium, &driver, move |client| async move {
        let client = &client;
        client.set_window_size(1280, 1000).await.unwrap();

        // 1. The empty board, scored from the book in the worker.
        client.goto(&url("")).await.unwrap();
        wait_until(
            client,
            "the board",
            "document.querySelectorAll('#board g.column').length === 7",
            Duration::from_secs(60),
        )
        .await;
        settle(client, "the first analysis").await;
        assert_eq!(
            js(client, "return document.documentElement.dataset.backend;").await,
            "worker"
        );
        check_scores(client, "").await;

        // 2. Clicks: the address follows, the scores and line are c4's.
        for col in [3, 2, 4] {
            click_column(client, col).await;
            settle(client, "an analysis").await;
        }
        assert_eq!(hash(client).await, "435");
        check_scores(client, "435").await;
        check_line(client, "435").await;
        let path = screenshot(client, "site.png").await;
        if std::env::var("C4_UPDATE_SCREENSHOT").is_ok_and(|v| v == "1") {
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/site.png");
            std::fs::copy(&path, docs).unwrap();
        }

        // 3. Undo and redo.
        click(client, Locator::Id("undo")).await;
        settle(client, "undo").await;
        assert_eq!(hash(client).await, "43");
        check_scores(client, "43").await;
        click(client, Locator::Id("redo")).await;
        settle(client, "redo").await;
        assert_eq!(hash(client).await, "435");

        // 4. A standard-set line carried in the address: its score is the
        // best column's, and every column is `c4 analyze`'s.
        client
            .goto(&url(&format!("#{}", line.moves)))
            .await
            .unwrap();
        wait_until(
            client,
            "the set's position",
            &format!(
                "document.querySelectorAll('#board .disc').length === {}",
                line.moves.len()
            ),
            Duration::from_secs(60),
        )
        .await;
        settle(client, "its analysis").await;
        let best = shown_scores(client, 7).await.into_iter().flatten().max();
        assert_eq!(best, Some(line.score as i64), "line {}", line.text());
        check_scores(client, &line.moves).await;

        // 5. A line opened from the address with ?review: its review, from
        // the worker, in view on a desktop window and a phone's.
        check_review_link(client, &url).await;
        client
            .goto(&url(&format!("?review#{REVIEW_GAME}")))
            .await
            .unwrap();
        check_review(client, REVIEW_GAME, None, "site-review.png").await;

        // 6. A game against level 0: Red wins.
        win_against_level_zero(client).await;

        // 7. A long search shows it is thinking; Stop ends the worker, and
        // the next position is answered by a new one.
        client.goto(&url("#8x7:")).await.unwrap();
        wait_for_analysis(client, "#8x7:").await;
        click(client, Locator::Id("stop")).await;
        settle(client, "the stop").await;
        assert_eq!(text_of(client, Locator::Id("sentence")).await, "Stopped.");
        client.goto(&url("#4453")).await.unwrap();
        wait_until(
            client,
            "the next position",
            "location.hash === '#4453' && document.querySelectorAll('#board .disc').length === 4",
            Duration::from_secs(60),
        )
        .await;
        settle(client, "its analysis").await;
        check_scores(client, "4453").await;

        // 8. A board the worker cannot score within the page's limit.
        check_board_beyond_limits(client, &url, "this page's limit of 10 s").await;
    });
}
