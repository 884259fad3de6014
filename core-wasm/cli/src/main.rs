//! `ftl`: the command-line runner over ftl-engine.
//!
//! ```text
//! ftl schemes [--json]
//! ftl presets [--json]
//! ftl trace-info FILE [--format NAME] [--page-bytes N] [--heat-buckets N] [--skip-bad-lines] [--json]
//! ftl generate --kind KIND --count N [--seed S] [--out FILE] [options]
//! ftl inspect --trace FILE --scheme ID --at N [--preset NAME] [--set KEY=VALUE ...] [--json]
//! ftl run --trace FILE --scheme ID [--scheme ID ...] [--preset NAME] [--format NAME] [--set KEY=VALUE ...] [--json]
//! ftl sweep --trace FILE --scheme ID ... --param NAME --values V1,V2,... [--json]
//! ftl sweep --experiment NAME [--json]
//! ```
//! Bad input exits with status 2 and one line on stderr: `FILE:LINE:COLUMN: what is wrong`
//! for trace errors, `ftl: what is wrong` otherwise.

mod args;
mod bench;
mod experiment;
mod generate;
mod huge_pages;
mod input;
mod inspect;
mod run;
mod select;
mod sweep;
mod trace_info;

use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: huge_pages::HugePages = huge_pages::HugePages;

const USAGE: &str = "usage:
  ftl schemes [--json]
  ftl presets [--json]
  ftl run --trace FILE --scheme ID [--scheme ID ...] [--preset NAME] [--format NAME] [--set KEY=VALUE ...] [--json]
  ftl run --help
  ftl sweep --trace FILE --scheme ID [--scheme ID ...] --param NAME --values V1,V2,... [--preset NAME] [--set KEY=VALUE ...] [--json]
  ftl sweep --experiment NAME [--json]   (ftl sweep --experiment list: the paper experiments)
  ftl inspect --trace FILE --scheme ID --at N [--preset NAME] [--set KEY=VALUE ...] [--limit N] [--json]
  ftl trace-info FILE [--format NAME] [--page-bytes N] [--heat-buckets N] [--skip-bad-lines] [--json]
  ftl generate --kind KIND --count N [--seed S] [--out FILE] [options]   (see ftl generate --help)
  ftl bench --trace FILE --scheme ID [--scheme ID ...] [--preset NAME] [--set KEY=VALUE ...] [--repeat N]";

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`ftl schemes | head -1`) would
    // panic; restore the default so the program just ends, as other command-line tools do.
    #[cfg(unix)]
    // SAFETY: called before any other thread exists; only resets a signal disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = match argv.first().map(String::as_str) {
        Some("schemes") => run::schemes(&argv[1..]),
        Some("presets") => run::presets(&argv[1..]),
        Some("run") => run::run(&argv[1..]),
        Some("sweep") => sweep::sweep(&argv[1..]),
        Some("inspect") => inspect::inspect(&argv[1..]),
        Some("bench") => bench::bench(&argv[1..]),
        Some("trace-info") => trace_info::trace_info(&argv[1..]),
        Some("generate") => generate::generate(&argv[1..]),
        Some("--help") | Some("-h") | Some("help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("ftl: unknown command '{other}'\n{USAGE}")),
        None => Err(format!("ftl: missing command\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}
