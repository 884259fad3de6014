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
    pool.free.rotate_left(1);
    assert_ne!(before, hash(&pool));
}
