//! `c4 completions SHELL` and `c4 man`: the shell completion scripts and the
//! man page, generated from the clap definition of the command line, so they
//! always list the options this binary has.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use clap_complete::Shell;

use super::output::{EXIT_BAD_INPUT, EXIT_OK, after_write_error, warn};

/// Arguments of `c4 completions`.
#[derive(Args, Debug)]
#[command(after_help = "\
The script completes the commands, their options and the values they take
(shells, sides, classes); it is made from this binary's own command line,
so it always matches it. Print it again after an upgrade.

Examples (each installs the script; put the bash or powershell line in the
shell's start-up file to keep it):
  source <(c4 completions bash)
  c4 completions zsh > \"${fpath[1]}/_c4\"
  c4 completions fish > ~/.config/fish/completions/c4.fish
  c4 completions powershell | Out-String | Invoke-Expression")]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: CompletionShell,
}

/// The shells `c4 completions` writes a script for.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum CompletionShell {
    /// GNU bash.
    Bash,
    /// Z shell.
    Zsh,
    /// fish.
    Fish,
    /// PowerShell.
    Powershell,
}

impl From<CompletionShell> for Shell {
    fn from(shell: CompletionShell) -> Self {
        match shell {
            CompletionShell::Bash => Shell::Bash,
            CompletionShell::Zsh => Shell::Zsh,
            CompletionShell::Fish => Shell::Fish,
            CompletionShell::Powershell => Shell::PowerShell,
        }
    }
}

/// Runs `c4 completions`: writes the script of the command line `cli` (the
/// caller's clap definition, handed down so this module need not import it)
/// to stdout.
pub fn run(args: &CompletionsArgs, cli: clap::Command) -> u8 {
    let mut script = Vec::new();
    clap_complete::generate(
        Shell::from(args.shell),
        &mut visible_command(cli),
        "c4",
        &mut script,
    );
    write_out("completions", &script)
}

/// The command line as completions offer it: the subcommands a user sees
/// (clap's generators would offer the hidden `man` too).
fn visible_command(full: clap::Command) -> clap::Command {
    let visible: Vec<clap::Command> = full
        .get_subcommands()
        .filter(|subcommand| !subcommand.is_hide_set())
        .cloned()
        .collect();
    clap::Command::new("c4")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommands(visible)
}

/// Arguments of `c4 man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write every page into DIR (c4.1, c4-solve.1, c4-book-generate.1,
    /// ...) instead of c4.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

/// Runs `c4 man`: writes the man page (roff, section 1) of the command line
/// `cli` to stdout, or every page into a directory.
pub fn run_man(args: &ManArgs, cli: clap::Command) -> u8 {
    if let Some(dir) = &args.out_dir {
        return match clap_mangen::generate_to(cli, dir) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                warn(format_args!(
                    "c4 man: cannot write the pages into {}: {e}",
                    dir.display()
                ));
                EXIT_BAD_INPUT
            }
        };
    }
    let mut page = Vec::new();
    let rendered = clap_mangen::Man::new(cli).render(&mut page);
    // Rendering into a Vec cannot fail.
    rendered.expect("a man page renders into memory");
    write_out("man", &page)
}

/// Writes `bytes` to stdout; the exit status.
fn write_out(command: &str, bytes: &[u8]) -> u8 {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => EXIT_OK,
        Err(e) => after_write_error(command, &e, EXIT_OK),
    }
}
