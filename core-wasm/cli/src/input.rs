//! Opening a trace file: gzip-compressed files (MSR Cambridge and SNIA distribute their
//! traces as `.gz`) are decompressed while they are read, recognised by their first bytes
//! rather than their name, so the parser sees text either way.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};

use flate2::bufread::MultiGzDecoder;
use ftl_engine::trace::binary::is_gzip;

/// A reader over `path`'s content, decompressed when it is gzip; errors are CLI messages.
pub fn open(path: &str) -> Result<Box<dyn Read>, String> {
    let file = File::open(path).map_err(|e| format!("ftl: {path}: cannot read: {e}"))?;
    let mut buf = BufReader::with_capacity(1 << 16, file);
    let head = buf.fill_buf().map_err(|e| format!("ftl: {path}: cannot read: {e}"))?;
    if is_gzip(head) {
        // Multi-member: `cat a.gz b.gz` and bgzip files are one stream of several members.
        Ok(Box::new(MultiGzDecoder::new(buf)))
    } else {
        Ok(Box::new(buf))
    }
}

/// `path`'s whole content, decompressed when it is gzip.
pub fn read_all(path: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    open(path)?.read_to_end(&mut out).map_err(|e| format!("ftl: {path}: cannot read: {e}"))?;
    Ok(out)
}
