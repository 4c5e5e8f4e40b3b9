//! Memory for the large tables read at random at every node (the transposition table, the
//! evaluation's weights): backed by 2 MB pages where Linux allows it, so that a lookup misses the
//! TLB less often as well as the cache.

/// `count` copies of `value` in memory the kernel is asked to back with huge pages. The advice is
/// given before the memory is first written, when the kernel can still follow it.
pub fn huge_vec<T: Clone>(count: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(count);
    advise_huge_pages(v.spare_capacity_mut());
    v.resize(count, value);
    v
}

/// Asks Linux to back the (not yet touched) memory with 2 MB pages. Only advice: when it is not
/// followed (huge pages disabled, another system) the memory works the same.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(memory: &mut [T]) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE_PAGE: usize = 1 << 21;
    let start = memory.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    // Only whole huge pages inside the allocation.
    let first = start.next_multiple_of(HUGE_PAGE);
    let last = end / HUGE_PAGE * HUGE_PAGE;
    if first < last {
        // SAFETY: the range lies inside `memory`, which this process owns; the advice changes how the
        // kernel backs those pages, never their contents. A failure (return value) is harmless.
        unsafe {
            madvise(first as *mut std::ffi::c_void, last - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_memory: &mut [T]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_vecs_hold_what_they_are_given() {
        for count in [0, 1, 1000, 3 << 20] {
            let v = huge_vec(count, 7u16);
            assert_eq!(v.len(), count);
            assert!(v.iter().all(|&x| x == 7));
        }
    }
}
