//! The resident memory and CPU time of a process and its descendants, from `/proc`.

use super::CLOCK_TICKS_PER_SEC;

/// The fields of `/proc/{pid}/stat` after the command name (which may hold spaces), from
/// the state on: field `n` of proc(5) is at index `n - 3`.
pub(crate) fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// `root` and every process descending from it (`root` first), from /proc.
pub(crate) fn process_tree(root: u32) -> Vec<u32> {
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if let Some(ppid) = stat_fields(pid).and_then(|f| f.get(1).and_then(|p| p.parse::<u32>().ok())) {
            parents.push((pid, ppid));
        }
    }
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(parents.iter().filter(|(_, ppid)| *ppid == parent).map(|(pid, _)| *pid));
        i += 1;
    }
    tree
}

/// Resident memory (KiB) of `root` and every process descending from it, from /proc.
pub(crate) fn rss_tree_kib(root: u32) -> Option<u64> {
    let rss = |pid: u32| -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let tree = process_tree(root);
    let root_rss = rss(root)?;
    Some(root_rss + tree[1..].iter().filter_map(|&pid| rss(pid)).sum::<u64>())
}

/// CPU time (user + system, ms) used so far by `root` and every process descending from it
/// (`utime` and `stime`, fields 14 and 15 of `/proc/PID/stat`, in clock ticks).
pub(crate) fn cpu_tree_ms(root: u32) -> Option<u64> {
    let ticks = |pid: u32| -> Option<u64> {
        let fields = stat_fields(pid)?;
        Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
    };
    let tree = process_tree(root);
    let root_ticks = ticks(root)?;
    let total = root_ticks + tree[1..].iter().filter_map(|&pid| ticks(pid)).sum::<u64>();
    Some(total * 1000 / CLOCK_TICKS_PER_SEC)
}
