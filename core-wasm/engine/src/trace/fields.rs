//! What each field of each format means, for the upload preview: one (name, meaning) per
//! field in file order, summarising the format modules' docs. `sectors` in a meaning means
//! the count is multiplied by the `sector_size` option (512 B unless overridden); a time in
//! "the time unit" follows the `time_unit` option (the format's own unit unless overridden).

use super::Format;

/// A field of a trace line.
pub type FieldDoc = (&'static str, &'static str);

/// The fields of `format`'s lines, in order.
pub fn fields(format: Format) -> &'static [FieldDoc] {
    match format {
        Format::Msr => &[
            ("Timestamp", "arrival time, Windows FILETIME (100 ns ticks)"),
            ("Hostname", "server; with DiskNumber it names the volume (device id hm_0)"),
            ("DiskNumber", "volume number on that server"),
            ("Type", "Read or Write"),
            ("Offset", "start address, bytes"),
            ("Size", "length, bytes"),
            ("ResponseTime", "measured latency, ignored"),
        ],
        Format::Spc => &[
            ("ASU", "application-specific unit: the device id, its own address space"),
            ("LBA", "start address, blocks (sectors)"),
            ("Size", "length, bytes"),
            ("Opcode", "R read, W write"),
            ("Timestamp", "seconds since the trace start"),
        ],
        Format::Disksim => &[
            ("time", "arrival time, milliseconds since the trace start"),
            ("devno", "device number (device id)"),
            ("blkno", "start address, sectors"),
            ("bcount", "length, sectors"),
            ("flags", "hex flags; bit 0 set = read, clear = write"),
        ],
        Format::Mqsim | Format::Ssdsim => &[
            ("arrival_time", "arrival time in the time unit (nanoseconds unless set)"),
            ("device_no", "device number (device id)"),
            ("start_sector", "start address, sectors"),
            ("size_sectors", "length, sectors"),
            ("type", "0 write, 1 read (SSDsim: 1 read, 0 write — the same)"),
        ],
        Format::Blkparse => &[
            ("maj,min", "device numbers (device id)"),
            ("cpu", "CPU, ignored"),
            ("seq", "sequence number, ignored"),
            ("sec.nsec", "seconds since the trace start"),
            ("pid", "process id, ignored"),
            ("action", "event: only D (issued to the device) or Q (queued) become requests"),
            ("RWBS", "D discard (trim), W write, R read; F S M A N only qualify it"),
            ("sector", "start address, sectors"),
            ("+", "separator"),
            ("nsectors", "length, sectors"),
            ("[process]", "process name, ignored"),
        ],
        Format::Fiu => &[
            ("ts", "arrival time, nanoseconds"),
            ("pid", "process id, ignored"),
            ("process", "process name, ignored"),
            ("lba", "start address, blocks (sectors)"),
            ("size", "length, blocks (sectors)"),
            ("op", "R read, W write"),
            ("major", "device major number (device id major,minor)"),
            ("minor", "device minor number"),
            ("md5", "content hash of each 4 KiB, ignored"),
        ],
        Format::Systor => &[
            ("Timestamp", "arrival time, Unix seconds"),
            ("Response", "measured latency, ignored"),
            ("IOType", "R read, W write, blank = no request"),
            ("LUN", "logical unit (device id)"),
            ("Offset", "start address, bytes"),
            ("Size", "length, bytes"),
        ],
        Format::Tencent => &[
            ("Timestamp", "arrival time, Unix seconds"),
            ("Offset", "start address, sectors"),
            ("Size", "length, sectors"),
            ("IOType", "0 read, 1 write"),
            ("VolumeID", "cloud volume (device id), its own address space"),
        ],
        Format::Cloudphysics => &[
            ("version", "vSCSI trace version, ignored"),
            ("time", "arrival time, seconds"),
            ("op", "SCSI opcode in hex: 08/28/a8/88 read, 0a/2a/aa/8a write, others ignored"),
            ("size", "length, bytes"),
            ("lbn", "start address, sectors"),
        ],
        Format::Plain => &[
            ("op", "R / read, W / write, T / trim (column op, type, rw, iotype, opcode or operation)"),
            ("offset", "start address: offset / offset_bytes in bytes, lba / sector in sectors"),
            ("size", "length: size / bytes / length in bytes, sectors / blocks in sectors"),
            ("time", "optional: time_ns / time_us / time_ms / time_s name the unit; time = ns"),
            ("device", "optional: device, dev, volume, lun, asu or disk (device id)"),
        ],
    }
}

/// Whether `format` counts addresses in sectors (so the `sector_size` option changes it).
pub fn uses_sectors(format: Format) -> bool {
    !matches!(format, Format::Msr | Format::Systor)
}
