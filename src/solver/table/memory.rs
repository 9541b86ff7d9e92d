//! The table's memory: zeroed atomic words in an anonymous mapping aligned
//! for huge pages (the global allocator elsewhere), mapped before the
//! searches use it.

use std::sync::atomic::{AtomicU64, Ordering};

/// Alignment of large tables: one huge page, so the kernel can back the table
/// with 2 MiB pages.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// The table's memory: `len` atomic words, zero-initialised, page-aligned.
pub(super) struct TableMemory {
    /// First word.
    ptr: std::ptr::NonNull<AtomicU64>,
    /// Number of words.
    len: usize,
    /// How the memory was obtained, to give it back the same way.
    origin: Origin,
}

/// Where a [`TableMemory`] came from.
enum Origin {
    /// An anonymous mapping (Linux) starting at `base`, `bytes` long.
    #[cfg(target_os = "linux")]
    Mapping {
        base: *mut libc::c_void,
        bytes: usize,
    },
    /// The global allocator, with this layout.
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    Allocator(std::alloc::Layout),
}

// SAFETY: the memory is owned by this value alone and only reached through
// atomics (or `&mut self`), so moving it to or sharing it with another thread
// is as safe as for a `Box<[AtomicU64]>`.
unsafe impl Send for TableMemory {}
// SAFETY: see `Send`: shared access only ever goes through atomic operations.
unsafe impl Sync for TableMemory {}

impl TableMemory {
    /// `len` zeroed words, or `None` if memory is short.
    ///
    /// The search reads the table at random: with 4 KiB pages nearly every
    /// probe of a large table also misses the TLB. On Linux the table is a
    /// fresh anonymous mapping (zero pages from the kernel, no memset),
    /// aligned to 2 MiB and marked for transparent huge pages. Its pages are
    /// mapped when first written, or all at once by [`TableMemory::touch`].
    pub(super) fn zeroed(len: usize) -> Option<TableMemory> {
        let bytes = len.checked_mul(8)?;
        if bytes == 0 {
            return None;
        }
        Self::map(len, bytes).or_else(|| Self::allocate(len, bytes))
    }

    /// Maps every page of the table, writable, leaving the words as they
    /// are, so that the searches do not take the page faults: each costs
    /// microseconds on a virtual machine, and a page first read maps the
    /// shared zero page, so a table faulted in by the search pays twice per
    /// page (a probe, then a store).
    ///
    /// On Linux, `MADV_POPULATE_WRITE` asks the kernel to do exactly that
    /// (in huge pages where it has them). Elsewhere, or if the kernel
    /// predates it (5.14), one atomic compare-and-exchange per page: on
    /// x86-64 a locked compare-and-exchange writes its word back even when
    /// the comparison fails, so it maps the page writable and changes
    /// nothing (a `fetch_or(0)` would not do: LLVM removes it as a no-op).
    /// Faulted in by the search instead, a 1 MiB table cost about 510
    /// faults, 5 ms of a first batch of End-Easy positions on two workers.
    pub(super) fn touch(&self) {
        #[cfg(target_os = "linux")]
        if let Origin::Mapping { .. } = self.origin {
            // SAFETY: the range is our own mapping's table part; the advice
            // only maps pages and never changes their contents.
            let done = unsafe {
                libc::madvise(
                    self.ptr.as_ptr() as *mut libc::c_void,
                    self.len * 8,
                    libc::MADV_POPULATE_WRITE,
                )
            };
            if done == 0 {
                return;
            }
        }
        self.touch_by_writes();
    }

    /// [`TableMemory::touch`] without the kernel's help: one atomic
    /// compare-and-exchange per page, which writes its word back unchanged.
    pub(super) fn touch_by_writes(&self) {
        let page_words = 4096 / 8;
        for word in self.iter().step_by(page_words) {
            let current = word.load(Ordering::Relaxed);
            let _ = word.compare_exchange(current, current, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// An anonymous mapping aligned to a huge page, advised to use them.
    #[cfg(target_os = "linux")]
    fn map(len: usize, bytes: usize) -> Option<TableMemory> {
        let mapped = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping; no existing memory is
        // affected. Failure is reported as MAP_FAILED and handled.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - (base as usize) % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: offset < HUGE_PAGE, so [start, start + bytes) lies inside
        // the mapping of bytes + HUGE_PAGE bytes.
        let start = unsafe { (base as *mut u8).add(offset) };
        // SAFETY: the range is inside our own mapping. This is advice only:
        // if the kernel says no, the table works the same.
        unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        Some(TableMemory {
            ptr: std::ptr::NonNull::new(start as *mut AtomicU64)?,
            len,
            origin: Origin::Mapping {
                base,
                bytes: mapped,
            },
        })
    }

    /// No mapping on this system: the caller falls back to the allocator.
    #[cfg(not(target_os = "linux"))]
    fn map(_len: usize, _bytes: usize) -> Option<TableMemory> {
        None
    }

    /// Zeroed memory from the global allocator.
    fn allocate(len: usize, bytes: usize) -> Option<TableMemory> {
        let layout = std::alloc::Layout::from_size_align(bytes, 4096).ok()?;
        // SAFETY: the layout has a non-zero size (checked by the caller).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) } as *mut AtomicU64;
        Some(TableMemory {
            ptr: std::ptr::NonNull::new(raw)?,
            len,
            origin: Origin::Allocator(layout),
        })
    }
}

impl std::ops::Deref for TableMemory {
    type Target = [AtomicU64];

    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `ptr` points to `len` initialised words (an all-zero
        // AtomicU64 is a valid one) that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for TableMemory {
    fn deref_mut(&mut self) -> &mut [AtomicU64] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for TableMemory {
    fn drop(&mut self) {
        match self.origin {
            #[cfg(target_os = "linux")]
            Origin::Mapping { base, bytes } => {
                // SAFETY: exactly the mapping made in `map`, unmapped once.
                unsafe { libc::munmap(base, bytes) };
            }
            Origin::Allocator(layout) => {
                // SAFETY: allocated by `alloc_zeroed` with exactly this layout.
                unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) }
            }
        }
    }
}
