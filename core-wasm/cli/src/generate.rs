//! `ftl generate`: writes a seeded synthetic trace as plain CSV (`op,offset,size,time_us`),
//! streaming, so any count fits in constant memory.

use std::io::{BufWriter, Write};

use ftl_engine::trace::generate::standins::StandIn;
use ftl_engine::trace::generate::{
    csv_record, Arrival, GenParams, Generator, Pattern, SizeDist, Spread, CSV_HEADER, KINDS,
};

use crate::args::Args;

const HELP: &str = "ftl generate --kind KIND --count N [--seed S] [--out FILE] [options]
ftl generate --list

Writes a reproducible synthetic trace as CSV (header op,offset,size,time_us) to FILE or
stdout. The same options and seed always give the same file.

KIND: uniform | hotcold (80/20) | zipf (theta 0.99) | sequential | mixed (50 % sequential)
      or a thesis stand-in: trace1..trace6, systemdisk1..systemdisk3, multimedia
      (SYNTHETIC STAND-INS built from published characteristics; see --list)

options (sizes accept K/M/G/T suffixes, binary: 4K = 4096):
  --seed S                 random seed (default 1)
  --address-space BYTES    logical space the requests stay inside
  --align BYTES            non-sequential requests start on multiples of this
  --size BYTES[,BYTES...]  request size, or sizes picked with equal probability
  --mean-size BYTES        geometric sizes in 512 B sectors with this mean
  --read-share F           probability of a read (0..1)
  --trim-share F           probability of a trim (0..1)
  --sequential-share F     probability a request continues the previous one
  --spread uniform|hotcold|zipf|groups   where the other requests land; groups: requests
                           in visits to groups of scattered extents, each request one
                           whole extent (correlated re-reference; needs no sequential share)
  --hot-space F --hot-share F     hot/cold split (default 0.2 / 0.8)
  --theta F                zipf skew, of slots or of group popularity (default 0.99)
  --group-region BYTES     groups: the region each group's extents lie in (default 4M)
  --group-density F        groups: share of its region a group covers (default 150/1024)
  --visit-requests N       groups: mean requests of a visit (default: the group's bytes
                           over the mean request size)
  --interarrival-us N      gap between requests in µs (mean gap with --poisson)
  --poisson                exponential gaps instead of fixed ones";

const VALUES: [&str; 19] = [
    "kind",
    "count",
    "seed",
    "out",
    "address-space",
    "align",
    "size",
    "mean-size",
    "read-share",
    "trim-share",
    "sequential-share",
    "spread",
    "hot-space",
    "hot-share",
    "theta",
    "interarrival-us",
    "group-region",
    "group-density",
    "visit-requests",
];

/// `4096`, `4K`, `64MiB`, `1g` as bytes (binary multiples; the engine's reading, shared
/// with sweeps).
fn parse_bytes(name: &str, text: &str) -> Result<u64, String> {
    ftl_engine::sweep::parse_bytes(text)
        .ok_or_else(|| format!("ftl: --{name} expects a byte count like 4096 or 64M, got '{text}'"))
}

fn parse_u32_bytes(name: &str, text: &str) -> Result<u32, String> {
    u32::try_from(parse_bytes(name, text)?)
        .map_err(|_| format!("ftl: --{name} must be below 4 GiB, got '{text}'"))
}

fn parse_f64(name: &str, text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("ftl: --{name} expects a number, got '{text}'"))
}

/// The parameters the flags describe: the kind's defaults, then each override.
fn params(args: &Args) -> Result<(GenParams, String), String> {
    let kind = args.one("kind").ok_or("ftl: generate needs --kind KIND (see ftl generate --help)")?;
    let count = args.one("count").ok_or("ftl: generate needs --count N")?;
    let count: u64 =
        count.parse().map_err(|_| format!("ftl: --count expects a whole number, got '{count}'"))?;
    let seed = match args.one("seed") {
        Some(s) => s.parse().map_err(|_| format!("ftl: --seed expects a whole number, got '{s}'"))?,
        None => 1,
    };
    let (mut p, label) = if let Some(s) = StandIn::from_name(kind) {
        (s.params(count, seed), s.summary())
    } else if let Some(pattern) = Pattern::from_kind(kind) {
        (GenParams { count, seed, pattern, ..GenParams::default() }, format!("synthetic {kind} trace"))
    } else {
        let names: Vec<&str> = StandIn::ALL.iter().map(|s| s.name()).collect();
        return Err(format!(
            "ftl: unknown kind '{kind}' (one of {}, {})",
            KINDS.join(", "),
            names.join(", ")
        ));
    };
    if let Some(v) = args.one("address-space") {
        p.address_space = parse_bytes("address-space", v)?;
    }
    if let Some(v) = args.one("align") {
        p.align = parse_u32_bytes("align", v)?;
    }
    if let Some(v) = args.one("size") {
        let sizes = v.split(',').map(|s| parse_u32_bytes("size", s)).collect::<Result<Vec<_>, _>>()?;
        p.sizes = if sizes.len() == 1 { SizeDist::Fixed(sizes[0]) } else { SizeDist::Choice(sizes) };
    }
    if let Some(v) = args.one("mean-size") {
        let mean_bytes = parse_bytes("mean-size", v)? as f64;
        p.sizes = SizeDist::Geometric { unit: 512, mean_bytes, max_bytes: 4 << 20 };
    }
    for (flag, slot) in [("read-share", &mut p.read_share), ("trim-share", &mut p.trim_share)] {
        if let Some(v) = args.one(flag) {
            *slot = parse_f64(flag, v)?;
        }
    }
    if let Some(v) = args.one("sequential-share") {
        p.pattern.sequential_share = parse_f64("sequential-share", v)?;
    }
    if let Some(v) = args.one("spread") {
        p.pattern.spread = match v {
            "uniform" => Spread::Uniform,
            "hotcold" | "hot-cold" => Spread::HotCold { hot_space: 0.2, hot_share: 0.8 },
            "zipf" => Spread::Zipf { theta: 0.99 },
            // The grouped MSR stand-ins' region and density (seed 001 Fig. 1); the visit
            // length follows the sizes once they are known.
            "groups" => Spread::Groups {
                region_bytes: 4 << 20,
                density: 150.0 / 1024.0,
                theta: 0.99,
                visit_requests: 0.0,
            },
            other => {
                return Err(format!("ftl: --spread expects uniform, hotcold, zipf or groups, got '{other}'"))
            }
        };
    }
    let group_flags = [args.one("group-region"), args.one("group-density"), args.one("visit-requests")];
    if let Spread::Groups { region_bytes, density, visit_requests, .. } = &mut p.pattern.spread {
        if let Some(v) = group_flags[0] {
            *region_bytes = parse_bytes("group-region", v)?;
        }
        if let Some(v) = group_flags[1] {
            *density = parse_f64("group-density", v)?;
        }
        *visit_requests = match group_flags[2] {
            Some(v) => parse_f64("visit-requests", v)?,
            None => (*density * *region_bytes as f64 / p.sizes.mean_bytes()).max(1.0),
        };
    } else if group_flags.iter().any(Option::is_some) {
        return Err("ftl: --group-region/--group-density/--visit-requests need --spread groups".into());
    }
    let hot = (args.one("hot-space"), args.one("hot-share"));
    if hot != (None, None) {
        let Spread::HotCold { hot_space, hot_share } = &mut p.pattern.spread else {
            return Err(
                "ftl: --hot-space/--hot-share need the hotcold spread (--kind hotcold or --spread hotcold)"
                    .into(),
            );
        };
        if let Some(v) = hot.0 {
            *hot_space = parse_f64("hot-space", v)?;
        }
        if let Some(v) = hot.1 {
            *hot_share = parse_f64("hot-share", v)?;
        }
    }
    if let Some(v) = args.one("theta") {
        let (Spread::Zipf { theta } | Spread::Groups { theta, .. }) = &mut p.pattern.spread else {
            return Err(
                "ftl: --theta needs the zipf or groups spread (--kind zipf or --spread zipf|groups)".into()
            );
        };
        *theta = parse_f64("theta", v)?;
    }
    let gap = match args.one("interarrival-us") {
        Some(v) => Some(parse_f64("interarrival-us", v)?),
        None => None,
    };
    p.arrival = match (gap, args.has("poisson"), p.arrival) {
        (Some(g), true, _) => Arrival::Poisson(g),
        (None, true, Arrival::Fixed(g)) => Arrival::Poisson(g as f64),
        (Some(g), false, _) if g >= 0.0 && g.fract() == 0.0 => Arrival::Fixed(g as u64),
        (Some(g), false, _) => {
            return Err(format!("ftl: --interarrival-us expects whole microseconds, got {g}"))
        }
        (None, _, a) => a,
    };
    p.validate().map_err(|e| format!("ftl: {e}"))?;
    Ok((p, label))
}

/// `ftl generate ...`.
pub fn generate(argv: &[String]) -> Result<(), String> {
    if argv.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        return Ok(());
    }
    let args = Args::parse(argv, &VALUES, &["poisson", "list"])?;
    if args.has("list") {
        println!("{:<12} uniform, hot/cold, zipf, sequential or mixed access (see --help)", KINDS.join(" "));
        for s in StandIn::ALL {
            println!("{:<12} {}", s.name(), s.summary());
        }
        return Ok(());
    }
    let (p, label) = params(&args)?;
    let count = p.count;
    let mut generator = Generator::new(p).map_err(|e| format!("ftl: {e}"))?;
    let command: Vec<String> = std::iter::once("ftl generate")
        .chain(argv.iter().map(String::as_str))
        .map(|a| a.replace(['\n', '\r'], " "))
        .collect();
    let mut write = |out: &mut dyn Write| -> std::io::Result<()> {
        // Comment lines: the parsers skip them, readers see where the file came from.
        writeln!(out, "# {label}")?;
        writeln!(out, "# {}", command.join(" "))?;
        writeln!(out, "{CSV_HEADER}")?;
        for r in generator.by_ref() {
            writeln!(out, "{}", csv_record(&r))?;
        }
        out.flush()
    };
    match args.one("out") {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| format!("ftl: {path}: cannot create: {e}"))?;
            write(&mut BufWriter::new(file)).map_err(|e| format!("ftl: {path}: cannot write: {e}"))?;
            println!("wrote {count} requests to {path}");
        }
        None => match write(&mut BufWriter::new(std::io::stdout().lock())) {
            // A reader that stops early (`| head`) is not an error.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(format!("ftl: cannot write: {e}"))
            }
            _ => {}
        },
    }
    Ok(())
}
