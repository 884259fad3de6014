//! A small flag parser: `--name value`, repeatable flags, and boolean switches. Hand-written
//! to keep the CLI's build quick and its error messages ours.

use std::collections::BTreeMap;

/// Flags that may be given more than once (each value counts); any other flag given twice
/// is refused rather than one of its values silently winning.
const REPEATABLE: &[&str] = &["scheme", "set", "device", "only", "trace-file"];

/// Parsed flags: every `--name value` in order of appearance, plus switches.
#[derive(Debug, Default)]
pub struct Args {
    values: BTreeMap<String, Vec<String>>,
    switches: Vec<String>,
}

impl Args {
    /// Parses `argv`. `with_value` lists the flags that take a value; `switches` those that
    /// do not. Anything else is an error naming the flag.
    pub fn parse(argv: &[String], with_value: &[&str], switches: &[&str]) -> Result<Args, String> {
        let mut out = Args::default();
        let mut it = argv.iter();
        while let Some(a) = it.next() {
            let name = a.strip_prefix("--").ok_or_else(|| format!("ftl: unexpected argument '{a}'"))?;
            if switches.contains(&name) {
                out.switches.push(name.to_string());
            } else if with_value.contains(&name) {
                let v = it.next().ok_or_else(|| format!("ftl: --{name} needs a value"))?;
                let values = out.values.entry(name.to_string()).or_default();
                if let (Some(first), false) = (values.first(), REPEATABLE.contains(&name)) {
                    return Err(format!("ftl: --{name} given twice ('{first}' and '{v}'); give it once"));
                }
                values.push(v.clone());
            } else {
                return Err(format!("ftl: unknown flag '--{name}'"));
            }
        }
        Ok(out)
    }

    /// All values of a repeatable flag.
    pub fn all(&self, name: &str) -> &[String] {
        self.values.get(name).map_or(&[], Vec::as_slice)
    }

    /// The last value of a flag.
    pub fn one(&self, name: &str) -> Option<&str> {
        self.all(name).last().map(String::as_str)
    }

    /// Whether a switch was given.
    pub fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn repeatable_values_and_switches() {
        let a = Args::parse(&v(&["--scheme", "page", "--json", "--scheme", "dftl"]), &["scheme"], &["json"])
            .unwrap();
        assert_eq!(a.all("scheme"), &["page", "dftl"]);
        assert!(a.has("json"));
        assert!(Args::parse(&v(&["--bogus"]), &[], &[]).unwrap_err().contains("--bogus"));
        assert!(Args::parse(&v(&["--scheme"]), &["scheme"], &[]).unwrap_err().contains("needs a value"));
        // A paper experiment takes the user's own trace in each of its slots.
        let a =
            Args::parse(&v(&["--trace-file", "a=x.csv", "--trace-file", "b=y.csv"]), &["trace-file"], &[])
                .unwrap();
        assert_eq!(a.all("trace-file"), &["a=x.csv", "b=y.csv"]);
    }

    #[test]
    fn a_flag_that_takes_one_value_is_refused_when_repeated() {
        let e = Args::parse(&v(&["--trace", "a.csv", "--trace", "b.csv"]), &["trace"], &[]).unwrap_err();
        assert!(e.contains("--trace given twice ('a.csv' and 'b.csv')"), "{e}");
    }
}
