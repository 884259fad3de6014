//! Every format against a real sample (public/traces/) or, where none ships, a hand-made
//! fixture in the published layout (tests/fixtures/traces/). Expected values were taken from
//! the files with awk, independently of the parser.

use ftl_engine::trace::HostOp::{self, Read, Trim, Write};
use ftl_engine::trace::{self, parse, parse_with, BlkEvent, ParseOptions, Parsed, Request};

fn shipped(name: &str) -> Vec<u8> {
    let path = format!("{}/../../public/traces/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/traces/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn req(time_ns: u64, op: HostOp, offset: u64, size: u32) -> Request {
    Request { time_ns, op, offset, size }
}

fn count(p: &Parsed, op: HostOp) -> usize {
    p.trace.requests.iter().filter(|r| r.op == op).count()
}

fn bytes(p: &Parsed) -> u64 {
    p.trace.requests.iter().map(|r| u64::from(r.size)).sum()
}

fn detected(bytes: &[u8], options: &ParseOptions) -> Parsed {
    parse_with(bytes, None, options).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn msr_cambridge_hm_0() {
    let p = detected(&shipped("msr-cambridge_hm_0_first1000.csv"), &ParseOptions::default());
    assert_eq!(p.trace.format, "msr");
    assert_eq!(p.trace.requests.len(), 1000);
    assert_eq!((count(&p, Read), count(&p, Write)), (508, 492));
    assert_eq!(bytes(&p), 9_689_600);
    assert_eq!(p.trace.requests[0], req(0, Write, 9_056_014_336, 2048));
    assert_eq!(p.trace.requests[1], req(21_500, Write, 11_855_351_808, 512));
    // (128166386567849604 - 128166385295514663) FILETIME ticks of 100 ns.
    assert_eq!(p.trace.requests[999], req(127_233_494_100, Read, 11_946_549_248, 4096));
    assert_eq!(p.report.devices.len(), 1);
    assert_eq!((p.report.devices[0].device.as_str(), p.report.devices[0].records), ("hm_0", 1000));
    assert_eq!((p.report.reordered, p.report.skipped, p.report.ignored), (0, 0, 0));
}

#[test]
fn mqsim_websearch() {
    let bytes_in = shipped("mqsim_wsrch-small_websearch.trace");
    let p = detected(&bytes_in, &ParseOptions::default());
    assert_eq!(p.trace.format, "mqsim");
    assert_eq!(p.trace.requests.len(), 24_783, "the last line has no newline and still counts");
    assert_eq!((count(&p, Read), count(&p, Write)), (24_779, 4));
    assert_eq!(bytes(&p), 746_324 * 512);
    assert_eq!(p.trace.requests[0], req(0, Read, 657_728 * 512, 16 * 512));
    assert_eq!(p.trace.requests[1], req(11_565_000 - 11_413_000, Read, 31_244_784 * 512, 64 * 512));
    assert_eq!(p.trace.requests[529], req(1_448_553_000 - 11_413_000, Write, 6112 * 512, 16 * 512));
    assert_eq!(p.trace.requests[24_782], req(60_055_212_000, Read, 34_371_424 * 512, 64 * 512));
    let devices: Vec<(&str, u64)> = p.report.devices.iter().map(|d| (d.device.as_str(), d.records)).collect();
    assert_eq!(devices, [("0", 8340), ("1", 8231), ("2", 8187), ("5", 10), ("3", 8), ("4", 7)]);

    // One device, writes only: the four writes are all on device 2.
    let opts =
        ParseOptions { devices: vec!["2".into()], reads: false, trims: false, ..ParseOptions::default() };
    let w = detected(&bytes_in, &opts);
    assert_eq!(w.trace.requests.len(), 4);
    assert_eq!(w.trace.requests[0], req(0, Write, 6112 * 512, 8192));
    assert_eq!(w.trace.requests[1].time_ns, 1_448_821_000 - 1_448_553_000);
    assert_eq!(w.trace.requests[2].time_ns, 31_420_338_000 - 1_448_553_000);
    assert_eq!(w.report.filtered, 24_783 - 4);

    // Microsecond override (MQSim's Time_Unit) multiplies every time by 1000.
    let us = ParseOptions {
        time_unit: Some(trace::TimeUnit::Us),
        max_requests: Some(2),
        ..ParseOptions::default()
    };
    let u = detected(&bytes_in, &us);
    assert_eq!(u.trace.requests[1].time_ns, (11_565_000 - 11_413_000) * 1000);
    assert!(u.report.limit_reached);
}

#[test]
fn blkparse_ycsb_dispatch_and_queue() {
    let b = shipped("snia-ycsb-rocksdb_ssdtrace-sample.blkparse.txt");
    let d = detected(&b, &ParseOptions::default());
    assert_eq!(d.trace.format, "blkparse");
    assert_eq!(d.trace.requests.len(), 1694);
    assert_eq!(count(&d, Read), 1694);
    assert_eq!(bytes(&d), 386_776 * 512);
    assert_eq!(d.trace.requests[0], req(0, Read, 282_624 * 512, 8 * 512));
    assert_eq!(d.trace.requests[1], req(13_363_110 - 5_462, Read, 286_720 * 512, 128 * 512));
    assert_eq!(d.trace.requests[1693], req(679_519_537 - 5_462, Read, 804_199_952 * 512, 256 * 512));
    assert_eq!(d.report.records + d.report.ignored, 10_000);
    assert_eq!(d.report.devices[0].device, "259,2");

    let q = detected(&b, &ParseOptions { blkparse_event: BlkEvent::Queue, ..ParseOptions::default() });
    assert_eq!(q.trace.requests.len(), 1695);
    assert_eq!(bytes(&q), 387_032 * 512);
    assert_eq!(q.trace.requests[1694], req(679_741_681, Read, 136_707_504 * 512, 256 * 512));
}

#[test]
fn blkparse_rwbs_letters_and_summary() {
    let text = "\
  8,16   1        1     0.000000000  5529  Q  WS 274432 + 8 [kworker]
  8,16   1        2     0.000001000  5529  D  WS 274432 + 8 [kworker]
  8,16   1        3     0.000002000  5529  D   D 1000 + 2048 [fstrim]
  8,16   1        4     0.000003000  5529  D FWFS [jbd2]
  8,16   1        5     0.000004000  5529  D   N 0 + 0 [jbd2]
  8,16   1        6     0.000005000  5529  D  RA 64 + 16 [cat]
  8,16   1        7     0.000006000     0  C  RA 64 + 16 [0]
  8,16   1        8     0.000007000  5529  m   N cfq5529 alloced
CPU1 (8,16):
 Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB
 Read Dispatches:        1,        8KiB\t Write Dispatches:        1,        4KiB

Total (8,16):
 Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB
Throughput (R/W): 0KiB/s / 4KiB/s
Events (8,16): 8 entries
Skips: 0 forward (0 -   0.0%)
";
    let p = detected(text.as_bytes(), &ParseOptions::default());
    assert_eq!(
        p.trace.requests,
        [
            req(0, Write, 274_432 * 512, 4096),
            req(1000, Trim, 1000 * 512, 2048 * 512),
            req(4000, Read, 64 * 512, 16 * 512),
        ]
    );
    assert_eq!(p.report.ignored, 5 + 8, "Q, flush, N, C, m, then 8 non-blank summary lines");
}

#[test]
fn tencent_cbs_volumes() {
    let b = shipped("tencent-cbs_cloud_storage-sample_50k.csv");
    let p = detected(&b, &ParseOptions::default());
    assert_eq!(p.trace.format, "tencent");
    assert_eq!(p.trace.requests.len(), 50_000);
    assert_eq!((count(&p, Read), count(&p, Write)), (24_521, 25_479));
    assert_eq!(bytes(&p), 2_965_610 * 512);
    assert_eq!(p.trace.requests[0], req(0, Write, 4_247_200 * 512, 128 * 512));
    assert_eq!(p.trace.requests[1], req(0, Read, 13_896_880 * 512, 128 * 512));
    // The file opens at second ...200, then lists 1297 records stamped ...199.
    assert_eq!(p.report.reordered, 1297);
    assert_eq!(p.report.devices.len(), 2038);
    assert_eq!(p.report.devices[0].device, "1125");
    assert_eq!(p.report.devices[0].records, 1225);

    let one = detected(&b, &ParseOptions { devices: vec!["1125".into()], ..ParseOptions::default() });
    assert_eq!(one.trace.requests.len(), 1225);
    assert_eq!(bytes(&one), 53_819 * 512);
}

#[test]
fn cloudphysics_vscsi() {
    let p = detected(&shipped("cloudphysics-vscsi_sample_first60000.csv"), &ParseOptions::default());
    assert_eq!(p.trace.format, "cloudphysics");
    assert_eq!(p.trace.requests.len(), 60_000);
    assert_eq!((count(&p, Read), count(&p, Write)), (24_041, 35_959));
    assert_eq!(bytes(&p), 2_130_023_936);
    assert_eq!(p.trace.requests[0], req(0, Write, 42_932_745 * 512, 512));
    assert_eq!(p.trace.requests[3], req(0, Write, 40_409_911 * 512, 6656));
    assert_eq!(p.trace.requests[59_999], req(4073 * 1_000_000_000, Read, 31_237_615 * 512, 32_768));
    assert!(p.report.devices.is_empty());
}

#[test]
fn umass_spc() {
    let p = detected(&fixture("umass-financial-like.spc"), &ParseOptions::default());
    assert_eq!(p.trace.format, "spc");
    assert_eq!(
        p.trace.requests,
        [
            req(0, Write, 303_567 * 512, 3584),
            req(26_214_000, Write, 55_590 * 512, 3072),
            req(551_706_000, Write, 20_941_264 * 512, 8192),
            req(1_500_000_000, Read, 1000 * 512, 512),
            req(2_000_001_000, Read, 303_574 * 512, 4096),
        ]
    );
    let asu0 = detected(
        &fixture("umass-financial-like.spc"),
        &ParseOptions { devices: vec!["0".into()], ..Default::default() },
    );
    assert_eq!(asu0.trace.requests.len(), 3);
}

#[test]
fn disksim_ascii() {
    let p = detected(&fixture("disksim.ascii"), &ParseOptions::default());
    assert_eq!(p.trace.format, "disksim");
    assert_eq!(
        p.trace.requests,
        [
            req(0, Write, 303_567 * 512, 7 * 512),
            req(26_214_000, Read, 55_590 * 512, 6 * 512),
            req(551_706_000, Write, 20_941_264 * 512, 16 * 512),
            req(1_000_500_000, Read, 1000 * 512, 512),
        ]
    );
}

#[test]
fn ssdsim_ascii_reads_like_mqsim() {
    let b = fixture("ssdsim-example.ascii");
    let s = parse(&b, Some("ssdsim")).unwrap();
    assert_eq!(s.format, "ssdsim");
    assert_eq!(
        s.requests,
        [
            req(0, Write, 303_567 * 512, 7 * 512),
            req(26_214_000, Write, 55_590 * 512, 6 * 512),
            req(551_706_000, Read, 20_941_264 * 512, 16 * 512),
            req(1_000_000_000, Read, 1000 * 512, 512),
        ]
    );
    let m = parse(&b, None).unwrap();
    assert_eq!((m.format.as_str(), &m.requests), ("mqsim", &s.requests));
}

#[test]
fn fiu() {
    let p = detected(&fixture("fiu-homes-like.txt"), &ParseOptions::default());
    assert_eq!(p.trace.format, "fiu");
    assert_eq!(
        p.trace.requests,
        [
            req(0, Read, 283_193_184 * 512, 4096),
            req(1_000_000, Write, 283_193_192 * 512, 8192),
            req(102_000_000, Write, 1000 * 512, 4096),
        ]
    );
    let names: Vec<&str> = p.report.devices.iter().map(|d| d.device.as_str()).collect();
    assert_eq!(names, ["6,0", "8,1"]);
}

#[test]
fn systor17() {
    let p = detected(&fixture("systor17-like.csv"), &ParseOptions::default());
    assert_eq!(p.trace.format, "systor");
    assert_eq!(
        p.trace.requests,
        [
            req(0, Read, 899_056_122_368, 131_072),
            req(24_000, Write, 4096, 4096),
            req(866_924_000, Write, 8192, 8192),
        ]
    );
    assert_eq!(p.report.ignored, 1, "the blank IOType line");
}

#[test]
fn plain_csv() {
    let p = detected(&fixture("plain.csv"), &ParseOptions::default());
    assert_eq!(p.trace.format, "csv");
    assert_eq!(
        p.trace.requests,
        [
            req(0, Write, 0, 4096),
            req(10_000, Write, 4096, 8192),
            req(25_000, Write, 0, 4096),
            req(40_000, Read, 0, 12_288),
            req(50_000, Trim, 4096, 4096),
        ]
    );
    let sectors = "type,lba,sectors,time_s,device\nread,8,8,0.5,a\nwrite,16,1,1,b\n";
    let p = detected(sectors.as_bytes(), &ParseOptions { devices: vec!["b".into()], ..Default::default() });
    assert_eq!(p.trace.requests, [req(0, Write, 16 * 512, 512)]);
}
