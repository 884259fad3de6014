//! The trait methods a demand scheme passes unchanged to the family's shared state and code,
//! written once. Inside an `impl` block, `demand::forward!(…)` names the methods to write:
//!
//! - in `impl DemandScheme`: `core` (writes `core` and `core_mut` over the field `core`);
//! - in `impl Ftl`: `read`, `write`, `trim` ([`read`](super::read), [`write`](super::write),
//!   [`trim`](super::trim)), `flush` ([`flush_entries`](super::flush_entries)), `place_prefill`
//!   ([`place_prefill`](super::place_prefill)), `map_view`
//!   ([`map_view`](super::map_view)), `block_role`
//!   ([`DemandCore::block_role`](super::DemandCore::block_role)) and `ram_budget`.
//!
//! A scheme whose method does more (APS reads its buffer first, HCFTL colours its DTP
//! blocks) writes that method itself and leaves it out of the list, so what differs stays in
//! sight.

/// Writes the named pass-through methods (see the module docs).
macro_rules! forward {
    ($($method:ident),+ $(,)?) => {
        $($crate::ftl::demand::forward!(@ $method);)+
    };
    (@ core) => {
        fn core(&self) -> &$crate::ftl::demand::DemandCore {
            &self.core
        }
        fn core_mut(&mut self) -> &mut $crate::ftl::demand::DemandCore {
            &mut self.core
        }
    };
    (@ read) => {
        fn read(
            &mut self,
            lpn: u32,
            dev: &mut $crate::device::Device,
        ) -> $crate::error::Result<Option<$crate::flash::PageTag>> {
            $crate::ftl::demand::read(self, lpn, dev)
        }
    };
    (@ write) => {
        fn write(&mut self, lpn: u32, version: u32, dev: &mut $crate::device::Device) -> $crate::error::Result<()> {
            $crate::ftl::demand::write(self, lpn, version, dev)
        }
    };
    (@ trim) => {
        fn trim(&mut self, lpn: u32, dev: &mut $crate::device::Device) -> $crate::error::Result<()> {
            $crate::ftl::demand::trim(self, lpn, dev)
        }
    };
    (@ flush) => {
        /// One rewrite per translation page holding dirty entries in RAM.
        fn flush(&mut self, dev: &mut $crate::device::Device) -> $crate::error::Result<()> {
            $crate::ftl::demand::flush_entries(self, dev)
        }
    };
    (@ place_prefill) => {
        /// Data pages in LPN order, each translation page they touch programmed once.
        fn place_prefill(
            &mut self,
            pages: &mut dyn Iterator<Item = (u32, u32)>,
            dev: &mut $crate::device::Device,
        ) -> $crate::error::Result<bool> {
            $crate::ftl::demand::place_prefill(self, pages, dev)
        }
    };
    (@ map_view) => {
        /// Translation pages through the GTD, overridden by the dirty entries RAM holds.
        fn map_view(&self) -> Option<$crate::ftl::MapView<'_>> {
            Some($crate::ftl::demand::map_view(self))
        }
    };
    (@ block_role) => {
        fn block_role(&self, block: $crate::flash::BlockId, dev: &$crate::device::Device) -> $crate::ftl::BlockRole {
            self.core.block_role(block, dev)
        }
    };
    (@ ram_budget) => {
        fn ram_budget(&self) -> Option<u64> {
            Some(self.core.ram_budget())
        }
    };
}

pub(crate) use forward;
