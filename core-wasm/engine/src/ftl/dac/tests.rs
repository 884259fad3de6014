//! DAC on hand-built cases.

use super::*;
