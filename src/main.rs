use clap::Parser;
use gradle_flaky::cli::Cli;
use std::io::Write;

/// Parses the command line, runs the command, and exits with its documented
/// code. Output to a closed pipe never panics: `gradle_flaky::output` drops
/// what cannot be written, so `… | head -1` ends with the command's own code.
fn main() {
    let cli = Cli::parse();
    let exit = match gradle_flaky::commands::run(cli) {
        Ok(exit) => exit,
        Err(err) => {
            let _ = writeln!(std::io::stderr(), "gradle-flaky: error: {err}");
            err.exit()
        }
    };
    std::process::exit(exit.code());
}
