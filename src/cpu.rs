//! The processor's instruction-set level, detected once, and the means to run the hot code compiled
//! for it: one portable binary that is as fast as a build for the machine.
//!
//! Rust enables instruction sets per function (`#[target_feature]`), and a function compiled with
//! them can inline any function compiled without. So each level has one generic trampoline
//! ([`Isa::run`]) that carries the level's features and calls a closure: the closure's body, and
//! every `#[inline]` helper it calls (move generation, flips, the evaluation, the table), is
//! compiled inside the trampoline with the level's instructions (POPCNT, BMI2, AVX2 vectors, ...).
//! The recursive searches are generic over an [`Isa`] and wrap their bodies in `I::run`, so that
//! every node runs in a trampoline of the same level; [`dispatch!`](crate::dispatch) picks the level once, at the
//! top of a search. The fast paths that are one instruction the compiler would not choose by itself
//! (`pext`; AVX-512's per-lane leading-zero count in `flips`) are constants of the level
//! ([`Isa::AVX512`], [`Isa::PEXT`]) in the searches; outside them (the protocols, the tools) the
//! same functions test a flag set from the level.
//!
//! On x86-64 the levels are the psABI's: `x86-64` (SSE2, any x86-64), `x86-64-v2` (POPCNT, SSE4.2),
//! `x86-64-v3` (AVX2, BMI1/2, LZCNT, FMA, MOVBE) and `x86-64-v4` (v3 with AVX-512 F, BW, CD, DQ,
//! VL), and above them `x86-64-avx512icl` (v4 with Ice Lake's and Zen 4's AVX-512 extensions, as
//! Stockfish names that build), which the compiler's vector code uses. On AMD processors before Zen 3 `pext` is microcoded (about 250 cycles, as Edax's builds
//! note), so there the software path replaces it at every level. Other architectures have one level:
//! what the target guarantees (NEON on aarch64). `EBONY_CPU` caps the level for tests and
//! measurements: a level name, optionally followed by `,nopext` (`EBONY_CPU=x86-64-v3,nopext`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// An instruction-set level: how code runs with its instructions.
pub trait Isa: 'static {
    /// Whether `flips` may use AVX-512 (a constant, so that the choice costs nothing at a node).
    const AVX512: bool = false;
    /// Whether `pext` is there and fast.
    const PEXT: bool = false;
    /// Runs `f` compiled with the level's instructions (those of `f`'s body that are inlined).
    fn run<R>(f: impl FnOnce() -> R) -> R;
}

/// What the target guarantees, with no trampoline.
pub struct Base;

impl Isa for Base {
    #[inline(always)]
    fn run<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
}

/// Defines an x86-64 level: its type, and its trampoline with the level's target features.
macro_rules! x86_level {
    ($(#[$doc:meta])* $name:ident, $trampoline:ident, $avx512:literal, $pext:literal, $features:literal) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        pub struct $name;

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $trampoline<R>(f: impl FnOnce() -> R) -> R {
            f()
        }

        #[cfg(target_arch = "x86_64")]
        impl Isa for $name {
            const AVX512: bool = $avx512;
            const PEXT: bool = $pext;

            #[inline(always)]
            fn run<R>(f: impl FnOnce() -> R) -> R {
                // SAFETY: `dispatch!` names this level only when `level()` found its features.
                unsafe { $trampoline(f) }
            }
        }
    };
}

x86_level!(
    /// x86-64-v2: POPCNT and SSE up to 4.2.
    V2,
    run_v2,
    false,
    false,
    "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b"
);
x86_level!(
    /// x86-64-v3: v2 with AVX2, BMI1, BMI2, LZCNT, FMA and MOVBE.
    V3,
    run_v3,
    false,
    true,
    "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b,avx,avx2,bmi1,bmi2,lzcnt,fma,movbe,f16c,xsave"
);
x86_level!(
    /// x86-64-v3 where `pext` is microcoded (AMD before Zen 3): the software path instead.
    V3NoPext,
    run_v3_nopext,
    false,
    false,
    "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b,avx,avx2,bmi1,bmi2,lzcnt,fma,movbe,f16c,xsave"
);
x86_level!(
    /// x86-64-v4: v3 with AVX-512 F, BW, CD, DQ and VL.
    V4,
    run_v4,
    true,
    true,
    "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b,avx,avx2,bmi1,bmi2,lzcnt,fma,movbe,f16c,xsave,\
     avx512f,avx512bw,avx512cd,avx512dq,avx512vl"
);

x86_level!(
    /// v4 with the AVX-512 extensions of Intel's Ice Lake and AMD's Zen 4 (Stockfish's
    /// `x86-64-avx512icl`): VPOPCNTDQ, BITALG, VBMI, VBMI2, VNNI, IFMA, GFNI and VPCLMULQDQ.
    V4Icl,
    run_v4icl,
    true,
    true,
    "popcnt,sse3,ssse3,sse4.1,sse4.2,cmpxchg16b,avx,avx2,bmi1,bmi2,lzcnt,fma,movbe,f16c,xsave,\
     avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx512vpopcntdq,avx512bitalg,avx512vbmi,avx512vbmi2,\
     avx512vnni,avx512ifma,gfni,vpclmulqdq"
);

/// The instruction-set levels, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Base,
    V2,
    V3,
    V4,
    V4Icl,
}

/// Every level, lowest first.
const LEVELS: [Level; 5] = [Level::Base, Level::V2, Level::V3, Level::V4, Level::V4Icl];

impl Level {
    /// The level's name, as rustc's `target-cpu` names it on x86-64.
    pub fn name(self) -> &'static str {
        match (cfg!(target_arch = "x86_64"), self) {
            (false, _) => "base",
            (true, Level::Base) => "x86-64",
            (true, Level::V2) => "x86-64-v2",
            (true, Level::V3) => "x86-64-v3",
            (true, Level::V4) => "x86-64-v4",
            (true, Level::V4Icl) => "x86-64-avx512icl",
        }
    }

    fn parse(name: &str) -> Option<Level> {
        LEVELS.into_iter().find(|l| l.name() == name)
    }
}

/// What was detected (and capped by `EBONY_CPU`): the level the searches run at, and whether `pext`
/// is fast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpu {
    pub level: Level,
    pub pext: bool,
}

impl Cpu {
    /// The instruction-set extensions in use, for `--version`: e.g. `x86-64-v3 avx2 bmi2` (`nopext`
    /// where the level has BMI2 but `pext` is slow).
    pub fn describe(&self) -> String {
        let mut words = vec![self.level.name()];
        words.extend(match self.level {
            Level::Base => &[][..],
            Level::V2 => &["popcnt"][..],
            Level::V3 => &["avx2", "bmi2"][..],
            Level::V4 | Level::V4Icl => &["avx512", "bmi2"][..],
        });
        if self.level >= Level::V3 && !self.pext {
            words.push("nopext");
        }
        words.join(" ")
    }
}

static CPU: OnceLock<Cpu> = OnceLock::new();
static PEXT: AtomicBool = AtomicBool::new(false);
static AVX512: AtomicBool = AtomicBool::new(false);

/// The processor's level, detected on first use (capped by a valid `EBONY_CPU`; see [`init`] for
/// one that is not).
pub fn cpu() -> Cpu {
    *CPU.get_or_init(|| {
        let cap = std::env::var("EBONY_CPU").ok().and_then(|v| parse_cap(&v).ok());
        let cpu = capped(detect(), cap);
        PEXT.store(cpu.pext, Ordering::Relaxed);
        AVX512.store(cpu.level >= Level::V4, Ordering::Relaxed);
        cpu
    })
}

/// The level the searches run at.
#[inline]
pub fn level() -> Level {
    cpu().level
}

/// Detects the processor, checking `EBONY_CPU`: an error names a value that is not a level.
pub fn init() -> Result<Cpu, String> {
    if let Ok(value) = std::env::var("EBONY_CPU") {
        parse_cap(&value)?;
    }
    Ok(cpu())
}

/// `LEVEL[,nopext]`.
fn parse_cap(value: &str) -> Result<Cpu, String> {
    let (name, rest) = value.split_once(',').unwrap_or((value, ""));
    let level = Level::parse(name.trim());
    match (level, rest.trim()) {
        (Some(level), "") => Ok(Cpu { level, pext: true }),
        (Some(level), "nopext") => Ok(Cpu { level, pext: false }),
        _ => {
            let names: Vec<&str> = LEVELS.iter().map(|l| l.name()).collect();
            let names = if cfg!(target_arch = "x86_64") { names } else { vec!["base"] };
            Err(format!("EBONY_CPU={value}: not a level (one of {}, optionally followed by ,nopext)", names.join(", ")))
        }
    }
}

fn capped(found: Cpu, cap: Option<Cpu>) -> Cpu {
    match cap {
        Some(cap) => Cpu { level: found.level.min(cap.level), pext: found.pext && cap.pext },
        None => found,
    }
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Cpu {
    use std::arch::is_x86_feature_detected as has;
    let v2 = has!("popcnt") && has!("sse3") && has!("ssse3") && has!("sse4.1") && has!("sse4.2") && has!("cmpxchg16b");
    let v3 = v2
        && has!("avx")
        && has!("avx2")
        && has!("bmi1")
        && has!("bmi2")
        && has!("lzcnt")
        && has!("fma")
        && has!("movbe")
        && has!("f16c")
        && has!("xsave");
    let v4 = v3 && has!("avx512f") && has!("avx512bw") && has!("avx512cd") && has!("avx512dq") && has!("avx512vl");
    let icl = v4
        && has!("avx512vpopcntdq")
        && has!("avx512bitalg")
        && has!("avx512vbmi")
        && has!("avx512vbmi2")
        && has!("avx512vnni")
        && has!("avx512ifma")
        && has!("gfni")
        && has!("vpclmulqdq");
    let level = match (v2, v3, v4, icl) {
        (.., true) => Level::V4Icl,
        (_, _, true, _) => Level::V4,
        (_, true, ..) => Level::V3,
        (true, ..) => Level::V2,
        _ => Level::Base,
    };
    Cpu { level, pext: level >= Level::V3 && !slow_pext() }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Cpu {
    Cpu { level: Level::Base, pext: false }
}

/// AMD's processors before Zen 3 (family 19h) run `pext` in microcode.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: `cpuid` exists on every x86-64 processor.
    let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163); // "AuthenticAMD"
    let family = (signature >> 8 & 0xF) + if signature >> 8 & 0xF == 0xF { signature >> 20 & 0xFF } else { 0 };
    amd && family < 0x19
}

/// Whether `pext` is there and fast (the level has BMI2 and the processor is not an early AMD).
#[inline(always)]
pub fn has_fast_pext() -> bool {
    cfg!(target_arch = "x86_64") && PEXT.load(Ordering::Relaxed)
}

/// Whether AVX-512 (F, BW, CD, DQ, VL) may be used.
#[inline(always)]
pub fn has_avx512() -> bool {
    cfg!(target_arch = "x86_64") && AVX512.load(Ordering::Relaxed)
}

/// `pext(value, mask)`: the bits of `value` under `mask`, packed to the low end.
#[inline(always)]
pub fn pext(value: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_fast_pext() {
        // SAFETY: the flag is set only when the processor has BMI2.
        return unsafe { pext_bmi2(value, mask) };
    }
    pext_soft(value, mask)
}

/// The `pext` instruction.
///
/// # Safety
/// The processor must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub unsafe fn pext_bmi2(value: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(value, mask)
}

/// `pext` one mask bit at a time.
#[inline(always)]
pub fn pext_soft(value: u64, mask: u64) -> u64 {
    let (mut out, mut bit, mut m) = (0u64, 1u64, mask);
    while m != 0 {
        if value & m & m.wrapping_neg() != 0 {
            out |= bit;
        }
        bit <<= 1;
        m &= m - 1;
    }
    out
}

/// Runs `$body` with the type `$isa` naming the detected level's [`Isa`]: the search's one dispatch.
#[macro_export]
macro_rules! dispatch {
    ($isa:ident => $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            let cpu = $crate::cpu::cpu();
            match cpu.level {
                $crate::cpu::Level::V4Icl => {
                    type $isa = $crate::cpu::V4Icl;
                    $body
                }
                $crate::cpu::Level::V4 => {
                    type $isa = $crate::cpu::V4;
                    $body
                }
                $crate::cpu::Level::V3 if cpu.pext => {
                    type $isa = $crate::cpu::V3;
                    $body
                }
                $crate::cpu::Level::V3 => {
                    type $isa = $crate::cpu::V3NoPext;
                    $body
                }
                $crate::cpu::Level::V2 => {
                    type $isa = $crate::cpu::V2;
                    $body
                }
                $crate::cpu::Level::Base => {
                    type $isa = $crate::cpu::Base;
                    $body
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            type $isa = $crate::cpu::Base;
            $body
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_parse_and_bad_ones_are_named() {
        assert_eq!(parse_cap(Level::Base.name()), Ok(Cpu { level: Level::Base, pext: true }));
        let err = parse_cap("pentium").unwrap_err();
        assert!(err.contains("EBONY_CPU=pentium") && err.contains(Level::Base.name()), "{err}");
        assert!(parse_cap("base,fast").is_err());
        if cfg!(target_arch = "x86_64") {
            assert_eq!(parse_cap("x86-64-v3,nopext"), Ok(Cpu { level: Level::V3, pext: false }));
        }
    }

    #[test]
    fn a_cap_never_raises_the_level() {
        let found = Cpu { level: Level::V2, pext: false };
        assert_eq!(capped(found, Some(Cpu { level: Level::V4, pext: true })), found);
        let top = Cpu { level: Level::V4, pext: true };
        assert_eq!(capped(top, Some(Cpu { level: Level::V3, pext: false })), Cpu { level: Level::V3, pext: false });
    }

    #[test]
    fn pext_agrees_with_its_software_path() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mask = x.rotate_left(23) & x.rotate_left(41);
            assert_eq!(pext(x, mask), pext_soft(x, mask));
        }
        assert_eq!(pext_soft(0b1011_0110, 0b1111_0000), 0b1011);
    }
}
