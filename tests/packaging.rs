//! What a release ships besides the library: the shell completions and the
//! man page generated from the command line's definition, one version
//! number for every artifact, and the scripts' one name for the standard
//! sets' directory.
//!
//! The completion test drives bash's own completion machinery: it sources
//! the script `c4 completions bash` prints, asks bash which function
//! completes `c4` (`complete -p c4`), calls it with COMP_WORDS and
//! COMP_CWORD set as bash sets them on a TAB, and reads COMPREPLY.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use assert_cmd::Command;
use predicates::prelude::*;

/// The repository's root.
fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch file of this test binary.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("packaging");
    fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The stdout of `c4 ARGS`, which must succeed.
fn c4_output(args: &[&str]) -> String {
    let out = Command::cargo_bin("c4")
        .unwrap()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// What bash offers on TAB after `words` (the last one the word being
/// completed), with the completion script `script` sourced.
fn bash_completions(script: &Path, words: &[&str]) -> Vec<String> {
    let array = words
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let program = format!(
        r#"set -e
source "$1"
# The function `complete -F FUNCTION c4` registered.
spec=$(complete -p c4)
function=$(sed -E 's/.* -F ([^ ]+) .*/\1/' <<<"$spec")
COMP_WORDS=({array})
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMP_LINE="${{COMP_WORDS[*]}}"
COMP_POINT=${{#COMP_LINE}}
COMPREPLY=()
# As bash calls it: the command, the word being completed, the one before.
# (Its status is compgen's: not 0 when nothing matches.)
"$function" c4 "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD - 1]}}" || true
printf '%s\n' "${{COMPREPLY[@]}}""#
    );
    let out = Process::new("bash")
        .args(["--norc", "--noprofile", "-c", &program, "bash"])
        .arg(script)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| line.trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect()
}

#[test]
fn bash_completes_subcommands_and_options() {
    let script = scratch("c4.bash");
    fs::write(&script, c4_output(&["completions", "bash"])).unwrap();

    assert_eq!(bash_completions(&script, &["c4", "so"]), ["solve"]);
    assert_eq!(
        bash_completions(&script, &["c4", "solve", "--wi"]),
        ["--width"]
    );
    // More than one candidate: all of them, and nothing else.
    let mut both = bash_completions(&script, &["c4", "b"]);
    both.sort();
    assert_eq!(both, ["bench", "book"]);
    // The hidden `man` is not offered.
    assert!(
        !bash_completions(&script, &["c4", "m"]).contains(&"man".to_owned()),
        "the hidden man subcommand is offered"
    );
}

#[test]
fn every_shell_gets_a_script_and_other_shells_are_refused() {
    for (shell, marker) in [
        ("zsh", "#compdef c4"),
        ("fish", "complete -c c4"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = c4_output(&["completions", shell]);
        assert!(script.contains(marker), "{shell}: no {marker}");
        assert!(script.contains("solve"), "{shell}: no solve");
        let width = if shell == "fish" {
            "-l width"
        } else {
            "--width"
        };
        assert!(script.contains(width), "{shell}: no {width}");
    }
    Command::cargo_bin("c4")
        .unwrap()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'tcsh'"));
}

#[test]
fn the_man_page_lists_the_subcommands() {
    let page = c4_output(&["man"]);
    assert!(page.contains(".TH c4 1 "), "no title line: {page:.200}");
    for subcommand in ["solve", "analyze", "bench", "play", "serve", "completions"] {
        assert!(page.contains(subcommand), "no {subcommand}");
    }
    // Every subcommand's page, into a directory.
    let dir = scratch("man");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    Command::cargo_bin("c4")
        .unwrap()
        .args(["man", "--out-dir"])
        .arg(&dir)
        .assert()
        .success();
    let solve = fs::read_to_string(dir.join("c4-solve.1")).unwrap();
    assert!(solve.contains(".TH c4-solve 1 "), "{solve:.200}");
    assert!(solve.contains("width"), "c4-solve.1 has no --width");
    assert!(dir.join("c4.1").exists() && dir.join("c4-book-generate.1").exists());
    assert!(!dir.join("c4-man.1").exists(), "a page for the hidden man");
    // man itself renders it, when installed.
    if Process::new("man").arg("--version").output().is_ok() {
        let file = scratch("c4.1");
        fs::write(&file, &page).unwrap();
        let out = Process::new("man")
            .arg("-l")
            .arg(&file)
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Connect Four perfect-play solver"), "{text}");
    }
}

/// The version of the workspace, read from the root Cargo.toml's
/// `[workspace.package]` table.
fn workspace_version() -> String {
    let manifest = fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let table = manifest
        .split("[workspace.package]")
        .nth(1)
        .expect("a [workspace.package] table");
    let line = table
        .lines()
        .find(|line| line.starts_with("version = "))
        .expect("a version in [workspace.package]");
    line.trim_start_matches("version = ")
        .trim_matches('"')
        .to_owned()
}

#[test]
fn every_artifact_takes_the_workspace_version() {
    let version = workspace_version();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert_eq!(c4_output(&["--version"]), format!("c4 {version}\n"));
    for member in ["python/Cargo.toml", "wasm/Cargo.toml"] {
        let manifest = fs::read_to_string(repo().join(member)).unwrap();
        assert!(
            manifest.contains("\nversion.workspace = true\n"),
            "{member} has a version of its own"
        );
    }
    let pyproject = fs::read_to_string(repo().join("python/pyproject.toml")).unwrap();
    assert!(pyproject.contains("dynamic = [\"version\"]"));
    assert!(
        !pyproject.contains("\nversion ="),
        "pyproject.toml has a version"
    );
    let package = fs::read_to_string(repo().join("npm/package.json")).unwrap();
    assert!(
        package.contains(&format!("\"version\": \"{version}\",")),
        "npm/package.json is not at {version} (scripts/release/release.sh writes it)"
    );
    let changelog = fs::read_to_string(repo().join("CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains(&format!("## [{version}]")),
        "CHANGELOG.md has no entry for {version}"
    );
}

#[test]
fn scripts_name_the_standard_sets_as_the_tests_do() {
    for script in ["site-bench.sh", "targets.sh", "bench.sh"] {
        let out = Process::new("bash")
            .arg(repo().join("scripts/measure").join(script))
            .env("C4_STANDARD_SETS", scratch("no-such-directory"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{script}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no standard test sets in")
                && stderr.contains("no-such-directory")
                && stderr.contains("set C4_STANDARD_SETS to their directory"),
            "{script}: {stderr}"
        );
    }
    for path in script_files() {
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("C4_TESTSETS"),
            "{} names the sets C4_TESTSETS",
            path.display()
        );
    }
}

/// Every file under `scripts/`, its subfolders included, but the index.
fn script_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![repo().join("scripts")];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.file_name().is_some_and(|name| name != "README.md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_scripts_index_names_every_script_under_its_folder() {
    let index = fs::read_to_string(repo().join("scripts/README.md")).unwrap();
    let files = script_files();
    assert!(files.len() > 20, "scripts/ holds {} files", files.len());
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let folder = path
            .parent()
            .unwrap()
            .strip_prefix(repo())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // The folder's section: from its heading to the next heading.
        let heading = format!("`{folder}/`");
        let start = index
            .find(&heading)
            .unwrap_or_else(|| panic!("scripts/README.md has no section for {folder}/"));
        let section = &index[start..];
        let section = &section[..section[1..]
            .find("\n## ")
            .map_or(section.len(), |end| end + 1)];
        assert!(
            section.contains(&format!("`{name}`")) || section.contains(&format!("`{name} ")),
            "scripts/README.md does not name {name} under {folder}/"
        );
    }
}
