//! Every command's help is for users: `c4 --help` and the `--help` and `-h`
//! of every command and subcommand it lists (found by reading the lists,
//! so a new command is checked too) show examples of that very command,
//! and every one that solves or reads a book says the memory it takes.

use std::collections::BTreeSet;

use assert_cmd::Command;

/// The help `c4 PATH... FLAG` prints (FLAG `--help` or `-h`).
fn help(path: &[String], flag: &str) -> String {
    let out = Command::cargo_bin("c4")
        .unwrap()
        .args(path)
        .arg(flag)
        .output()
        .unwrap();
    assert!(out.status.success(), "c4 {} {flag}", path.join(" "));
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a help lists under `Commands:`, without clap's `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command path: `[]` for `c4` itself, then `["solve"]`, ...,
/// `["book", "info"]`, ...
fn every_command() -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut todo = vec![Vec::new()];
    while let Some(path) = todo.pop() {
        for name in subcommands(&help(&path, "--help")) {
            let mut child = path.clone();
            child.push(name);
            todo.push(child);
        }
        found.push(path);
    }
    found.sort();
    found
}

/// The example lines of a help: those after its `Examples` heading.
fn examples(help: &str) -> Vec<&str> {
    help.lines()
        .skip_while(|l| !l.starts_with("Examples"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

#[test]
fn every_command_and_subcommand_has_examples_of_itself() {
    let commands = every_command();
    let names: BTreeSet<String> = commands.iter().map(|p| p.join(" ")).collect();
    // The list is read from the help, so it cannot miss a command; these
    // must be among them.
    for expected in [
        "",
        "solve",
        "analyze",
        "review",
        "bench",
        "generate",
        "play",
        "serve",
        "book",
        "book generate",
        "book merge",
        "book info",
        "book verify",
        "completions",
    ] {
        assert!(names.contains(expected), "{expected:?} not in {names:?}");
    }
    for path in &commands {
        let name = if path.is_empty() {
            "c4 ".to_owned()
        } else {
            format!("c4 {} ", path.join(" "))
        };
        for flag in ["--help", "-h"] {
            let text = help(path, flag);
            let lines = examples(&text);
            assert!(
                lines
                    .iter()
                    .any(|l| format!("{l} ").contains(name.as_str())),
                "`{}{flag}` shows no example of `{name}`:\n{text}",
                name
            );
        }
    }
}

#[test]
fn every_command_that_takes_memory_says_how_much() {
    for path in every_command() {
        // `c4 completions` prints a script made from the command line:
        // nothing to solve, no file to read.
        if path == ["completions"] {
            continue;
        }
        let text = help(&path, "--help");
        assert!(
            text.contains("Memory") || text.contains("memory"),
            "`c4 {} --help` says nothing of memory:\n{text}",
            path.join(" ")
        );
    }
}

/// `text` with every run of whitespace made one space, so that a phrase is
/// found wherever the help wraps its lines.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn help_speaks_to_users() {
    for path in every_command() {
        let text = words(&help(&path, "--help"));
        for jargon in ["under 3 stones, or over 39 empty cells", "..=", "{:?}"] {
            assert!(
                !text.contains(jargon),
                "`c4 {} --help` says {jargon:?}:\n{text}",
                path.join(" ")
            );
        }
    }
    // --tt-size says what it is for and when to change it.
    let text = words(&help(&["solve".to_owned()], "--help"));
    let tt = text
        .split("--tt-size <SIZE>")
        .nth(1)
        .expect("solve has --tt-size");
    assert!(tt.contains("the default suffices on 7x6"), "{tt}");
    assert!(tt.contains("never the answer"), "{tt}");
    assert!(tt.contains("Lower it to save memory"), "{tt}");
}

/// Whole-number flags are read in plain words: no Rust range or parse
/// error text reaches the user.
#[test]
fn number_flags_speak_plain_words() {
    for (args, want) in [
        (
            &["serve", "--port", "99999"][..],
            "99999 is too large: at most 65535",
        ),
        (
            &["serve", "--max-connections", "0"][..],
            "0 is too small: at least 1",
        ),
        (
            &["book", "verify", "builtin", "--sample", "x"][..],
            "'x' is not a whole number",
        ),
        (
            &["generate", "--count", "3x"][..],
            "'3x' is not a whole number",
        ),
        (
            &["solve", "--width", "seven", "4453"][..],
            "'seven' is not a whole number",
        ),
    ] {
        let out = Command::cargo_bin("c4")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        for rust in ["..=", "invalid digit", "is not in"] {
            assert!(!err.contains(rust), "{args:?}: {err}");
        }
    }
}
