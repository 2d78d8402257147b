//! No import cycles among the modules of `server/src` and `actors/src`.
//!
//! The rule, so that "no cycle" means what it says:
//!
//! - A module is a file; a folder's `mod.rs` stands for the folder. Modules written inline
//!   in a file (`mod tests { … }`) belong to their file.
//! - Every path a file names (`use crate::a::b`, `use super::{x, y}`, and paths written
//!   in code such as `crate::a::b::f()`) is an edge to the deepest module file the path
//!   reaches; `super` and `self` are resolved from where they are written, inline modules
//!   included. Comments, strings and character literals are skipped.
//! - An edge from module A to module B counts between the two modules just below their
//!   deepest common ancestor: a file inside folder F naming a sibling S of F counts as F
//!   naming S, and two files of one folder count as themselves. An edge between a folder
//!   module and its own contents (a `mod.rs` re-exporting its children, a child naming
//!   `super::` items of the `mod.rs`) is no edge: seen from outside a folder is one module.
//! - A cycle is a strongly connected component of more than one module among the
//!   children of any one module; the test names every such component and its edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its path below the crate root (`["routes", "auth"]`).
type Module = Vec<String>;

/// Every `.rs` file under `root` by module, with its text. `main.rs` is a crate of its
/// own (it names the library by its crate name) and is left out.
fn read_crate(root: &Path) -> BTreeMap<Module, String> {
    let mut files = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && path != root.join("main.rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                files.insert(module_of(root, &path), text);
            }
        }
    }
    files
}

fn module_of(root: &Path, file: &Path) -> Module {
    let rel: PathBuf = file.strip_prefix(root).expect("inside the root").with_extension("");
    let mut parts: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// `text` without comments, string and character literals (each replaced by a space).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_char(prev(&chars, i)) {
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (1..=hashes).all(|h| chars.get(j + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push(' ');
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), else a lifetime.
            let end = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    i = end + 1;
                    out.push(' ');
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev(chars: &[char], i: usize) -> char {
    if i == 0 {
        ' '
    } else {
        chars[i - 1]
    }
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A path a file names, with the inline modules it is written in.
struct Named {
    inline: Vec<String>,
    path: Vec<String>,
}

/// Every `crate`/`super`/`self` path in `code` (already [`code_only`]).
fn named_paths(code: &str) -> Vec<Named> {
    let tokens = tokenize(code);
    let mut found = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].as_str();
        let here = || inline.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        match t {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            "mod" if tokens.get(i + 2).is_some_and(|t| t == "{") => {
                inline.push((tokens[i + 1].clone(), depth));
            }
            "use" => {
                let end = (i..tokens.len()).find(|&j| tokens[j] == ";").unwrap_or(tokens.len());
                for path in expand_use(&tokens[i + 1..end]) {
                    if matches!(path.first().map(String::as_str), Some("crate" | "super" | "self")) {
                        found.push(Named { inline: here(), path });
                    }
                }
                i = end;
                continue;
            }
            "crate" | "super" if tokens.get(i + 1).is_some_and(|t| t == "::") => {
                let mut path = vec![t.to_string()];
                let mut j = i + 1;
                while tokens.get(j).is_some_and(|t| t == "::") && tokens.get(j + 1).is_some_and(|t| is_ident(t)) {
                    path.push(tokens[j + 1].clone());
                    j += 2;
                }
                found.push(Named { inline: here(), path });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

fn is_ident(t: &str) -> bool {
    t.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && t.chars().all(ident_char)
}

/// Identifiers, `::` and single punctuation characters.
fn tokenize(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if ident_char(c) {
            let start = i;
            while i < chars.len() && ident_char(chars[i]) {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push("::".into());
            i += 2;
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

/// The paths of a use tree (`crate::a::{b, c::{d, e}}` gives `crate::a::b`, `crate::a::c::d`, …).
fn expand_use(tokens: &[String]) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "::" => i += 1,
            "{" => {
                let mut paths = Vec::new();
                let mut depth = 0;
                let mut start = i + 1;
                for j in i..tokens.len() {
                    match tokens[j].as_str() {
                        "{" => depth += 1,
                        "}" | "," if depth == 1 => {
                            for tail in expand_use(&tokens[start..j]) {
                                paths.push(prefix.iter().cloned().chain(tail).collect());
                            }
                            start = j + 1;
                            if tokens[j] == "}" {
                                return paths;
                            }
                        }
                        "}" => depth -= 1,
                        _ => {}
                    }
                }
                return paths;
            }
            "as" | "*" => break,
            t if is_ident(t) => {
                prefix.push(t.to_string());
                i += 1;
            }
            _ => i += 1,
        }
    }
    if prefix.is_empty() {
        Vec::new()
    } else {
        vec![prefix]
    }
}

/// The module edges of a crate, at the granularity the module docs give.
fn edges(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (file, text) in files {
        for named in named_paths(&code_only(text)) {
            let here: Module = file.iter().chain(&named.inline).cloned().collect();
            let mut segments = named.path.iter().peekable();
            let mut base: Module = match segments.peek().map(|s| s.as_str()) {
                Some("crate") => {
                    segments.next();
                    Vec::new()
                }
                _ => here.clone(),
            };
            while let Some(s) = segments.peek() {
                match s.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.next();
            }
            while !base.is_empty() && !files.contains_key(&base) {
                base.pop();
            }
            for s in segments {
                let mut next = base.clone();
                next.push(s.clone());
                if !files.contains_key(&next) {
                    break;
                }
                base = next;
            }
            let common = file.iter().zip(&base).take_while(|(a, b)| a == b).count();
            if common == file.len() || common == base.len() {
                continue;
            }
            edges.entry(file[..=common].to_vec()).or_default().insert(base[..=common].to_vec());
        }
    }
    edges
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a Module) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        for u in w.edges.get(v).into_iter().flatten() {
            if !w.index.contains_key(u) {
                visit(w, u);
                let low = w.low[v].min(w.low[u]);
                w.low.insert(v, low);
            } else if w.stack.contains(&u) {
                let low = w.low[v].min(w.index[u]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            while let Some(u) = w.stack.pop() {
                component.push(u.clone());
                if u == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut walk = Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            visit(&mut walk, v);
        }
    }
    walk.found
}

/// Each cycle as its modules and the edges among them, one line each.
fn report(edges: &BTreeMap<Module, BTreeSet<Module>>, found: &[Vec<Module>]) -> String {
    let name = |m: &Module| m.join("::");
    let mut lines = Vec::new();
    for component in found {
        lines.push(format!("cycle among {}", component.iter().map(name).collect::<Vec<_>>().join(", ")));
        for m in component {
            let targets: Vec<String> =
                edges.get(m).into_iter().flatten().filter(|t| component.contains(t)).map(name).collect();
            lines.push(format!("  {} uses {}", name(m), targets.join(", ")));
        }
    }
    lines.join("\n")
}

fn check(dir: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let files = read_crate(&root);
    assert!(files.len() > 20, "{dir} holds the crate's sources");
    let edges = edges(&files);
    let found = cycles(&edges);
    assert!(found.is_empty(), "import cycles in {dir}:\n{}", report(&edges, &found));
}

#[test]
fn the_server_has_no_import_cycle() {
    check("server/src");
}

#[test]
fn the_actors_have_no_import_cycle() {
    check("actors/src");
}

fn crate_of(files: &[(&str, &str)]) -> BTreeMap<Module, String> {
    files.iter().map(|(path, text)| (module_of(Path::new(""), Path::new(path)), text.to_string())).collect()
}

#[test]
fn a_cycle_through_a_folder_is_found_and_named() {
    let files = crate_of(&[
        ("lib.rs", "pub mod f; pub mod h; pub mod quiet;"),
        ("f/mod.rs", "mod g; pub use g::T;"),
        ("f/g.rs", "use super::T; pub fn f() { crate::h::z(); }"),
        ("h.rs", "use crate::{f::{self, T}, quiet};"),
        (
            "quiet.rs",
            "// use crate::h;\nconst S: &str = \"crate::h::z\"; const C: char = '\"'; fn a<'a>(x: &'a str) {}",
        ),
    ]);
    let edges = edges(&files);
    let found = cycles(&edges);
    assert_eq!(found, vec![vec![vec!["f".to_string()], vec!["h".to_string()]]]);
    assert!(report(&edges, &found).contains("cycle among f, h"));
    assert!(!edges.contains_key(&vec!["quiet".to_string()]), "comments and strings name nothing");
}

#[test]
fn a_folder_and_its_own_files_and_inline_test_modules_make_no_cycle() {
    let files = crate_of(&[
        ("lib.rs", "pub mod f;"),
        ("f/mod.rs", "mod a; mod b; pub use a::A; pub struct M;"),
        ("f/a.rs", "use super::M; pub struct A; #[cfg(test)] mod tests { use super::super::b::B; }"),
        ("f/b.rs", "use super::A; pub struct B; mod tests { use super::*; }"),
    ]);
    let edges = edges(&files);
    assert!(cycles(&edges).is_empty(), "{edges:?}");
    let expected: BTreeSet<Module> = [vec!["f".to_string(), "b".to_string()]].into_iter().collect();
    assert_eq!(edges.get(&vec!["f".to_string(), "a".to_string()]), Some(&expected), "the test module's use");
    assert_eq!(edges.get(&vec!["f".to_string(), "b".to_string()]), None, "super:: items of mod.rs are no edge");
}
