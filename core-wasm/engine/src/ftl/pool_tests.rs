use super::*;
use crate::config::{CellType, Latencies};
use crate::events::Purpose;
use crate::flash::{FlashArray, PageTag};

/// A scheme that only allocates: its collections find nothing (the pool dips into the
/// reserve) unless `gain` erases a fully invalid block.
#[derive(Debug)]
struct Toy {
    pool: BlockPool,
    collects: usize,
}

impl Collects for Toy {
    fn pool(&mut self) -> &mut BlockPool {
        &mut self.pool
    }
    fn collect(&mut self, _dev: &mut Device) -> Result<bool> {
        self.collects += 1;
        Ok(false)
    }
}

fn device(blocks: u32, ppb: u32) -> Device {
    Device::new(FlashArray::new(blocks, ppb, CellType::Slc), Latencies::default(), false)
}

fn write(toy: &mut Toy, slot: usize, dev: &mut Device) -> Result<Ppn> {
    let ppn = next_page(toy, slot, dev, false)?;
    dev.program(ppn, PageTag::data(ppn, 1), Purpose::Data)?;
    Ok(ppn)
}

#[test]
fn fills_the_open_block_then_takes_a_block_of_the_slots_unit() {
    let mut dev = device(8, 2);
    let mut toy = Toy { pool: BlockPool::new(8, 2, 1, 2), collects: 0 };
    let got: Vec<Ppn> = (0..3).map(|_| write(&mut toy, 1, &mut dev).unwrap()).collect();
    // Slot 1 is unit 1: blocks 1 then 3 (pages 2, 3, then 6).
    assert_eq!(got, [2, 3, 6]);
    assert_eq!(toy.pool.open(1), Some(3));
    assert!(toy.pool.is_open(3) && !toy.pool.is_open(1));
    assert_eq!(toy.pool.free_len(), 6);
    toy.pool.check(&dev).unwrap();
}

#[test]
fn collects_at_the_reserve_then_dips_into_it_and_fails_only_when_empty() {
    let mut dev = device(4, 2);
    let mut toy = Toy { pool: BlockPool::new(4, 1, 2, 1), collects: 0 };
    for _ in 0..4 {
        write(&mut toy, 0, &mut dev).unwrap(); // blocks 0 and 1: the pool reaches the reserve
    }
    assert_eq!(toy.collects, 0);
    for _ in 0..4 {
        write(&mut toy, 0, &mut dev).unwrap(); // nothing collectable: the reserve is used
    }
    assert_eq!(toy.collects, 2, "one attempt per block taken at or below the reserve");
    let e = write(&mut toy, 0, &mut dev).unwrap_err();
    assert!(e.to_string().contains("no free block"), "{e}");
}

#[test]
fn gc_copies_never_start_a_collection() {
    let mut dev = device(4, 2);
    let mut toy = Toy { pool: BlockPool::new(4, 1, 4, 1), collects: 0 };
    next_page(&mut toy, 0, &mut dev, true).unwrap();
    assert_eq!(toy.collects, 0);
}

#[test]
fn check_refuses_a_written_block_on_the_free_list_and_the_hash_sees_the_order() {
    let mut dev = device(4, 2);
    let mut pool = BlockPool::new(4, 1, 1, 1);
    dev.program(4, PageTag::data(0, 1), Purpose::Data).unwrap(); // block 2, still listed free
    assert!(pool.check(&dev).unwrap_err().contains("block 2"));
    let hash = |p: &BlockPool| {
        let mut h = StateHasher::default();
        p.hash_into(&mut h);
        h.finish()
    };
    let before = hash(&pool);
    // Blocks 0 and 1 swap places in the list (their stamps say which comes first).
    pool.free_by_unit[0][0].0 = 1;
    pool.free_by_unit[0][1].0 = 0;
    assert_ne!(before, hash(&pool));
}

/// A scheme whose collections erase the first fully invalid block of the unit they are
/// asked for (programs come from `write`, invalidations from the test).
#[derive(Debug)]
struct Eraser {
    pool: BlockPool,
    collects_on: Vec<usize>,
}

impl Collects for Eraser {
    fn pool(&mut self) -> &mut BlockPool {
        &mut self.pool
    }
    fn collect(&mut self, _dev: &mut Device) -> Result<bool> {
        Ok(false)
    }
    fn collect_on(&mut self, dev: &mut Device, unit: usize) -> Result<bool> {
        self.collects_on.push(unit);
        let units = self.pool.units();
        let pool = &self.pool;
        let victim = (0..dev.flash().blocks()).find(|&b| {
            b as usize % units == unit
                && !pool.is_open(b)
                && dev.flash().programmed_count(b) > 0
                && dev.flash().valid_count(b) == 0
        });
        let Some(v) = victim else { return Ok(false) };
        dev.erase(v, Purpose::Gc)?;
        self.pool.release(v);
        Ok(true)
    }
}

fn put(s: &mut Eraser, slot: usize, dev: &mut Device) -> Ppn {
    let ppn = next_page(s, slot, dev, false).unwrap();
    dev.program(ppn, PageTag::data(ppn, 1), Purpose::Data).unwrap();
    ppn
}

/// Review engine-model P2: one victim per invocation, of the unit that
/// needs the block, when that unit is down to its share of the reserve.
#[test]
fn one_victim_collects_once_on_the_unit_that_needs_a_block() {
    let mut dev = device(8, 2);
    // 2 units, reserve 2: each unit keeps 1 block in reserve.
    let pool = BlockPool::new(8, 2, 2, 2).with_collection(Collection::OneVictim);
    assert_eq!(pool.unit_reserve(), 1);
    let mut s = Eraser { pool, collects_on: vec![] };
    // Unit 0 opens blocks 0, 2, 4, leaving it its reserve (block 6): no collection yet.
    let written: Vec<Ppn> = (0..6).map(|_| put(&mut s, 0, &mut dev)).collect();
    assert_eq!(written, [0, 1, 4, 5, 8, 9]);
    assert!(s.collects_on.is_empty());
    for p in [0, 1, 4] {
        dev.invalidate(p).unwrap();
    }
    // Block 4 full: unit 0 is at its reserve, so one victim of unit 0 (block 0) is collected.
    assert_eq!(s.pool.free_on(0), 1);
    let ppn = put(&mut s, 0, &mut dev);
    assert_eq!(dev.flash().block_of(ppn) % 2, 0, "still unit 0");
    put(&mut s, 0, &mut dev);
    assert_eq!(s.collects_on, [0], "one invocation");
    assert_eq!(dev.counters.erases[Purpose::Gc as usize], 1, "one victim, not until above the reserve");
    assert_eq!(s.pool.free_on(1), 4, "unit 1 untouched");
    assert_eq!(dev.stats.cross_unit_blocks, 0);
    s.pool.check(&dev).unwrap();
}

/// Review engine-model P4, §5.4: a unit without free blocks of its own
/// borrows another unit's, counted; with borrowing off the write fails naming the unit.
#[test]
fn borrowing_another_units_block_is_counted_or_refused() {
    let mut dev = device(4, 2);
    let mut toy = Toy { pool: BlockPool::new(4, 2, 1, 2), collects: 0 };
    for _ in 0..4 {
        write(&mut toy, 0, &mut dev).unwrap(); // unit 0's blocks 0 and 2
    }
    assert_eq!(dev.stats.cross_unit_blocks, 0);
    let ppn = write(&mut toy, 0, &mut dev).unwrap();
    assert_eq!(dev.flash().block_of(ppn) % 2, 1, "a unit-1 block");
    assert_eq!(dev.stats.cross_unit_blocks, 1);
    toy.pool.check(&dev).unwrap();

    let mut dev = device(4, 2);
    let gc = crate::config::GcConfig { borrow_blocks: false, ..Default::default() };
    let mut toy = Toy { pool: BlockPool::new(4, 2, 1, 2).with_gc(&gc), collects: 0 };
    for _ in 0..4 {
        write(&mut toy, 0, &mut dev).unwrap();
    }
    let e = write(&mut toy, 0, &mut dev).unwrap_err().to_string();
    assert!(e.contains("unit 0 has no free block") && e.contains("gc.borrow_blocks"), "{e}");
}

/// Seed 003: static allocation puts logical page n on unit n mod units;
/// round-robin rotates whatever the address.
#[test]
fn static_allocation_uses_the_low_logical_address_bits() {
    let gc =
        crate::config::GcConfig { unit_allocation: crate::gc::UnitAllocation::Static, ..Default::default() };
    let mut pool = BlockPool::new(16, 4, 1, 4).with_gc(&gc);
    for lpn in [0u32, 5, 6, 7, 8, 13, 1023] {
        assert_eq!(pool.write_unit(lpn), lpn as usize % 4);
    }
    let mut rr = BlockPool::new(16, 4, 1, 4);
    let got: Vec<usize> = [7u32, 7, 7, 7, 7].iter().map(|&l| rr.write_unit(l)).collect();
    assert_eq!(got, [0, 1, 2, 3, 0]);
}
