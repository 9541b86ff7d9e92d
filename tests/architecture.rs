//! The layers of `docs/architecture.md` checked against the code: reads the
//! imports of every file of `src/` and fails on an import circle between
//! files, on a circle between the modules of a folder (each subfolder one
//! unit), and on an import the doc's layer table does not allow.
//!
//! An import is any path into the crate: `use` lines with their groups
//! (`use crate::{a::{b, c}, d}`), and paths in code that start with
//! `crate::`, `super::`, `self::`, `$crate::`, `c4::` (in the binary) or the
//! name of a child module. A path is followed through re-exports to the
//! file that defines its item. Code under `#[cfg(test)]` is left out, and so
//! is a module's re-export of its own parts (`pub use part::Item`).
//!
//! The table: every line `| layer | `module` | owns | may import |` of the
//! doc. A module's row lists what it may import from its own folder: a
//! top-level module lists other top-level ones, `solver::search` lists
//! modules of `solver/` (and an import from `solver/search/node.rs` to
//! `position` is checked on the row of `solver`). Every module of `src/`
//! has a row, every import is listed, every listed import is used, and each
//! lists only modules of lower layers. And no file has more than 700 lines.
//!
//! `cargo test --test architecture -- --nocapture` prints the graph's
//! figures.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module: its path from its crate's root (`["crate", "solver",
/// "search"]`, or `["main", "cli", ...]` in the binary) and its file.
struct Module {
    file: PathBuf,
    /// The file with comments, strings and test code blanked out.
    code: String,
    /// Child modules (not test ones), by name.
    children: BTreeSet<String>,
    /// Names of the items the file defines (`fn`, `struct`, `mod`, ...).
    defined: BTreeSet<String>,
    /// Names brought in by `use`: name -> absolute path.
    imports: BTreeMap<String, Vec<String>>,
    /// Every path into the crate: (line, path as written, is a re-export).
    paths: Vec<(usize, Vec<String>, bool)>,
}

type Key = Vec<String>;

fn name(key: &[String]) -> String {
    if key.len() == 1 {
        return format!("{}.rs", if key[0] == "crate" { "lib" } else { "main" });
    }
    key[1..].join("::")
}

/// `code` with comments, string and character literals replaced by spaces
/// (line breaks kept).
fn strip(source: &str) -> String {
    let s: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(s[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(s[i - 1].is_alphanumeric() || s[i - 1] == '_'))
        {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while s.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if s.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= s.len() {
                    break;
                }
                if s[j] == '"' && (0..hashes).all(|h| s.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.extend(s[i..j.min(s.len())].iter().map(|&c| blank(c)));
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != '"' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(s.len());
            out.extend(s[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '\'' {
            // A character literal, or a lifetime (left as it is).
            let end = if next == Some('\\') {
                let mut j = i + 2;
                while j < s.len() && s[j] != '\'' {
                    j += 1;
                }
                j + 1
            } else if s.get(i + 2) == Some(&'\'') {
                i + 3
            } else {
                i + 1
            };
            let end = end.min(s.len());
            if end == i + 1 {
                out.push(c);
            } else {
                out.extend(s[i..end].iter().map(|&c| blank(c)));
            }
            i = end;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// A token and the line it is on.
#[derive(Clone, Debug)]
struct Token {
    text: String,
    line: usize,
    start: usize,
    end: usize,
}

fn tokens(code: &str) -> Vec<Token> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            out.push(Token {
                text: code[start..i].to_string(),
                line,
                start,
                end: i,
            });
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push(Token {
                text: "::".into(),
                line,
                start: i,
                end: i + 2,
            });
            i += 2;
        } else {
            out.push(Token {
                text: (c as char).to_string(),
                line,
                start: i,
                end: i + 1,
            });
            i += 1;
        }
    }
    out
}

/// The span of the item that starts at token `i`: to its `;` or the end
/// of its `{ ... }` block, whichever comes first.
fn item_end(t: &[Token], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < t.len() {
        match t[i].text.as_str() {
            "{" | "(" | "[" => depth += 1,
            "}" | ")" | "]" => {
                depth -= 1;
                if depth == 0 && t[i].text == "}" {
                    return i;
                }
            }
            ";" if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    t.len() - 1
}

/// Blanks out every item under `#[cfg(test)]`; returns the names of the
/// test modules declared by `#[cfg(test)] mod name;`.
fn drop_tests(code: &mut String) -> BTreeSet<String> {
    let mut test_mods = BTreeSet::new();
    loop {
        let t = tokens(code);
        let at = (0..t.len().saturating_sub(6)).find(|&i| {
            t[i].text == "#"
                && t[i + 1].text == "["
                && t[i + 2].text == "cfg"
                && t[i + 3].text == "("
                && t[i + 4].text == "test"
                && t[i + 5].text == ")"
        });
        let Some(at) = at else { return test_mods };
        // Skip this and any further attributes.
        let mut i = at;
        while i < t.len() && t[i].text == "#" {
            let mut depth = 0;
            i += 1;
            while i < t.len() {
                match t[i].text.as_str() {
                    "[" => depth += 1,
                    "]" => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        let end = item_end(&t, i);
        let words: Vec<&str> = t[i..=end].iter().map(|t| t.text.as_str()).collect();
        if let Some(m) = words.iter().position(|&w| w == "mod")
            && words.last() == Some(&";")
        {
            test_mods.insert(words[m + 1].to_string());
        }
        let (from, to) = (t[at].start, t[end].end);
        let blanked: String = code[from..to]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        code.replace_range(from..to, &blanked);
    }
}

/// One leaf of a use tree: the path and the name it brings in (`None` for
/// a glob).
fn use_tree(
    t: &[Token],
    i: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix.to_vec();
    loop {
        match t[*i].text.as_str() {
            "{" => {
                *i += 1;
                while t[*i].text != "}" {
                    use_tree(t, i, &path, out);
                    if t[*i].text == "," {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                *i += 1;
                out.push((path, None));
                return;
            }
            "$" => *i += 1,
            word => {
                path.push(word.to_string());
                *i += 1;
                if t[*i].text == "::" {
                    *i += 1;
                    continue;
                }
                let mut name = word.to_string();
                if t[*i].text == "as" {
                    name = t[*i + 1].text.clone();
                    *i += 2;
                }
                if path.last().is_some_and(|w| w == "self") {
                    path.pop();
                    if name == "self" {
                        name = path.last().cloned().unwrap_or_default();
                    }
                }
                out.push((path, Some(name)));
                return;
            }
        }
    }
}

struct Crate {
    modules: BTreeMap<Key, Module>,
}

impl Crate {
    fn load(src: &Path) -> Crate {
        let mut c = Crate {
            modules: BTreeMap::new(),
        };
        c.add(vec!["crate".into()], src.join("lib.rs"), src);
        c.add(vec!["main".into()], src.join("main.rs"), src);
        let keys: Vec<Key> = c.modules.keys().cloned().collect();
        for key in &keys {
            c.read_paths(key);
        }
        c
    }

    /// Reads a module and, recursively, its children.
    fn add(&mut self, key: Key, file: PathBuf, dir: &Path) {
        let source =
            fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut code = strip(&source);
        let test_mods = drop_tests(&mut code);
        let t = tokens(&code);
        let mut children = BTreeSet::new();
        for i in 0..t.len().saturating_sub(2) {
            if t[i].text == "mod" && t[i + 2].text == ";" && !test_mods.contains(&t[i + 1].text) {
                children.insert(t[i + 1].text.clone());
            }
        }
        let defined = (1..t.len())
            .filter(|&i| {
                matches!(
                    t[i - 1].text.as_str(),
                    "fn" | "struct"
                        | "enum"
                        | "trait"
                        | "type"
                        | "const"
                        | "static"
                        | "union"
                        | "macro_rules"
                ) || (i >= 2 && t[i - 2].text == "macro_rules" && t[i - 1].text == "!")
            })
            .map(|i| t[i].text.clone())
            .collect();
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let child_dir = if key.len() == 1 || stem == "mod" {
            dir.to_path_buf()
        } else {
            dir.join(stem)
        };
        for child in &children {
            let flat = child_dir.join(format!("{child}.rs"));
            let (child_file, grand_dir) = if flat.exists() {
                (flat, child_dir.clone())
            } else {
                (child_dir.join(child).join("mod.rs"), child_dir.join(child))
            };
            let mut child_key = key.clone();
            child_key.push(child.clone());
            self.add(child_key, child_file, &grand_dir);
        }
        self.modules.insert(
            key,
            Module {
                file,
                code,
                children,
                defined,
                imports: BTreeMap::new(),
                paths: Vec::new(),
            },
        );
    }

    /// The absolute form of a path written in module `key` (its first
    /// segment resolved), or `None` for a path outside the crates.
    fn absolute(&self, key: &Key, path: &[String]) -> Option<Vec<String>> {
        let module = &self.modules[key];
        let first = path.first()?;
        let (mut base, rest) = match first.as_str() {
            "crate" => (vec![key[0].clone()], &path[1..]),
            "c4" if key[0] == "main" => (vec!["crate".to_string()], &path[1..]),
            "self" => (key.clone(), &path[1..]),
            "super" => {
                let mut base = key.clone();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                (base, rest)
            }
            word if module.children.contains(word) => (key.clone(), path),
            word if module.imports.contains_key(word) => {
                let mut full = module.imports[word].clone();
                full.extend(path[1..].iter().cloned());
                return Some(full);
            }
            _ => return None,
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The module that defines what an absolute path names, following
    /// re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Key> {
        if depth > 16 {
            return None;
        }
        let mut key = vec![path[0].clone()];
        for (i, seg) in path.iter().enumerate().skip(1) {
            let module = self.modules.get(&key)?;
            if module.children.contains(seg) {
                key.push(seg.clone());
            } else if module.defined.contains(seg) {
                return Some(key);
            } else if let Some(target) = module.imports.get(seg) {
                let mut full = target.clone();
                full.extend(path[i + 1..].iter().cloned());
                return self.resolve(&full, depth + 1).or(Some(key));
            } else {
                return Some(key);
            }
        }
        Some(key)
    }

    fn read_paths(&mut self, key: &Key) {
        let code = self.modules[key].code.clone();
        let t = tokens(&code);
        let mut uses = Vec::new();
        let mut in_use = vec![false; t.len()];
        let mut i = 0;
        while i < t.len() {
            let prev = i.checked_sub(1).map(|p| t[p].text.as_str());
            if t[i].text == "use" && prev != Some("::") {
                let public = prev == Some("pub") || prev == Some(")");
                let start = i;
                let mut j = i + 1;
                let mut leaves = Vec::new();
                use_tree(&t, &mut j, &[], &mut leaves);
                for flag in &mut in_use[start..j] {
                    *flag = true;
                }
                for (path, name) in leaves {
                    uses.push((t[start].line, path, name, public));
                }
                i = j;
            } else {
                i += 1;
            }
        }
        // First the names `use` brings in (they resolve paths in code).
        for (_, path, name, _) in &uses {
            if let (Some(name), Some(abs)) = (name, self.absolute(key, path)) {
                self.modules
                    .get_mut(key)
                    .unwrap()
                    .imports
                    .insert(name.clone(), abs);
            }
        }
        let mut paths: Vec<(usize, Vec<String>, bool)> = uses
            .into_iter()
            .map(|(line, path, _, public)| (line, path, public))
            .collect();
        // Then paths in code.
        let module = &self.modules[key];
        let mut i = 0;
        while i + 1 < t.len() {
            let word = t[i].text.as_str();
            let prev = i.checked_sub(1).map(|p| t[p].text.as_str());
            let starts = matches!(word, "crate" | "super" | "self")
                || (word == "c4" && key[0] == "main")
                || module.children.contains(word);
            if in_use[i]
                || !starts
                || t[i + 1].text != "::"
                || prev == Some("::")
                || prev == Some(".")
            {
                i += 1;
                continue;
            }
            let mut path = vec![word.to_string()];
            let mut j = i + 1;
            while j + 1 < t.len()
                && t[j].text == "::"
                && t[j + 1]
                    .text
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_')
            {
                path.push(t[j + 1].text.clone());
                j += 2;
            }
            paths.push((t[i].line, path, false));
            i = j;
        }
        self.modules.get_mut(key).unwrap().paths = paths;
    }

    /// Every import between two modules: (from, to, line, path).
    fn edges(&self) -> Vec<(Key, Key, usize, String)> {
        let mut out = Vec::new();
        for (key, module) in &self.modules {
            for (line, path, public) in &module.paths {
                let Some(abs) = self.absolute(key, path) else {
                    continue;
                };
                let Some(to) = self.resolve(&abs, 0) else {
                    continue;
                };
                let inside = to.len() > key.len() && to.starts_with(key);
                if &to == key || (*public && inside) {
                    continue;
                }
                out.push((key.clone(), to, *line, path.join("::")));
            }
        }
        out
    }
}

/// The strongly connected components of more than one node.
fn cycles<N: Ord + Clone>(nodes: &BTreeSet<N>, edges: &BTreeSet<(N, N)>) -> Vec<Vec<N>> {
    let reach = |from: &N| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for (a, b) in edges {
                if *a == n && seen.insert(b.clone()) {
                    stack.push(b.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<N, BTreeSet<N>> = nodes.iter().map(|n| (n.clone(), reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in nodes {
        if done.contains(n) || !reaches[n].contains(n) {
            continue;
        }
        let scc: Vec<N> = nodes
            .iter()
            .filter(|m| reaches[n].contains(*m) && reaches[*m].contains(n))
            .cloned()
            .collect();
        done.extend(scc.iter().cloned());
        out.push(scc);
    }
    out
}

/// The two units an import joins, as seen from the folder they share: the
/// module of that folder each is in (or the folder's own module).
fn units(from: &Key, to: &Key) -> (Key, Key) {
    if from[0] != to[0] {
        return (
            from[..2.min(from.len())].to_vec(),
            to[..2.min(to.len())].to_vec(),
        );
    }
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    (
        from[..(common + 1).min(from.len())].to_vec(),
        to[..(common + 1).min(to.len())].to_vec(),
    )
}

/// The most lines a file of `src/` may have.
const MAX_LINES: usize = 700;

/// A row of the doc's table.
struct Row {
    layer: u32,
    may_import: BTreeSet<String>,
}

fn rows(doc: &str) -> BTreeMap<String, Row> {
    let mut out = BTreeMap::new();
    for line in doc.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 6 {
            continue;
        }
        let (Ok(layer), Some(module)) = (
            cells[1].parse::<u32>(),
            cells[2].strip_prefix('`').and_then(|m| m.strip_suffix('`')),
        ) else {
            continue;
        };
        let may_import = cells[4]
            .split(',')
            .map(|m| m.trim().trim_matches('`').to_string())
            .filter(|m| !m.is_empty() && m != "—" && m != "-")
            .collect();
        assert!(
            out.insert(module.to_string(), Row { layer, may_import })
                .is_none(),
            "docs/architecture.md: two rows for `{module}`"
        );
    }
    out
}

#[test]
fn imports_follow_the_layers_of_the_architecture_doc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let krate = Crate::load(&root.join("src"));
    let doc = fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let rows = rows(&doc);
    // Circles the doc names as still open: every module of one lies in
    // the module named.
    let open: Vec<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("- Open circle: `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    let inside_open = |k: &Key| {
        open.iter()
            .any(|o| name(k) == *o || name(k).starts_with(&format!("{o}::")))
    };
    let mut open_seen = BTreeSet::new();
    let file = |key: &Key| {
        krate.modules[key]
            .file
            .strip_prefix(root)
            .unwrap()
            .display()
            .to_string()
    };
    let mut problems = Vec::new();

    let edges = krate.edges();
    let nodes: BTreeSet<Key> = krate.modules.keys().cloned().collect();
    let file_edges: BTreeSet<(Key, Key)> = edges
        .iter()
        .map(|(a, b, _, _)| (a.clone(), b.clone()))
        .collect();
    let evidence = |a: &Key, b: &Key| {
        edges
            .iter()
            .filter(|(x, y, _, _)| x == a && y == b)
            .map(|(_, _, line, path)| format!("{}:{line} imports {path}", file(a)))
            .collect::<Vec<_>>()
            .join("; ")
    };
    // 1. Circles between files.
    let file_cycles = cycles(&nodes, &file_edges);
    for scc in &file_cycles {
        if scc.iter().all(&inside_open) {
            open_seen.extend(
                open.iter()
                    .filter(|o| scc.iter().any(|k| name(k).starts_with(o.as_str())))
                    .cloned(),
            );
            continue;
        }
        let inner: Vec<String> = file_edges
            .iter()
            .filter(|(a, b)| scc.contains(a) && scc.contains(b))
            .map(|(a, b)| evidence(a, b))
            .collect();
        problems.push(format!("import circle between files: {}", inner.join("; ")));
    }
    // 2. Circles between the units of each folder, and 3. the table.
    let mut unit_edges: BTreeMap<(Key, Key), Vec<String>> = BTreeMap::new();
    for (a, b, line, path) in &edges {
        let (ua, ub) = units(a, b);
        if ua != ub {
            unit_edges
                .entry((ua, ub))
                .or_default()
                .push(format!("{}:{line} imports {path}", file(a)));
        }
    }
    let unit_nodes: BTreeSet<Key> = unit_edges
        .keys()
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .collect();
    let unit_set: BTreeSet<(Key, Key)> = unit_edges.keys().cloned().collect();
    let unit_cycles = cycles(&unit_nodes, &unit_set);
    for scc in &unit_cycles {
        if scc.iter().all(&inside_open) {
            continue;
        }
        let inner: Vec<String> = unit_set
            .iter()
            .filter(|(a, b)| scc.contains(a) && scc.contains(b))
            .map(|(a, b)| {
                format!(
                    "{} -> {} ({})",
                    name(a),
                    name(b),
                    unit_edges[&(a.clone(), b.clone())].join("; ")
                )
            })
            .collect();
        problems.push(format!(
            "import circle between folders: {}",
            inner.join("; ")
        ));
    }
    let mut used: BTreeSet<(String, String)> = BTreeSet::new();
    let mut upward = 0;
    for ((a, b), evidence) in &unit_edges {
        let (na, nb) = (name(a), name(b));
        used.insert((na.clone(), nb.clone()));
        // A module's use of its own parts needs no row.
        if b.len() > a.len() && b.starts_with(a) {
            continue;
        }
        let allowed = rows
            .get(&na)
            .is_some_and(|row| row.may_import.contains(&nb));
        if !allowed {
            upward += 1;
            problems.push(format!(
                "docs/architecture.md does not let `{na}` import `{nb}`: {}",
                evidence.join("; ")
            ));
        }
    }
    for key in krate.modules.keys() {
        if key.len() > 1 && !rows.contains_key(&name(key)) {
            problems.push(format!(
                "{}: module `{}` has no row in docs/architecture.md",
                file(key),
                name(key)
            ));
        }
    }
    for (module, row) in &rows {
        let exists = krate.modules.keys().any(|k| name(k) == *module);
        if !exists {
            problems.push(format!(
                "docs/architecture.md: no module `{module}` in src/"
            ));
        }
        for other in &row.may_import {
            if !used.contains(&(module.clone(), other.clone())) {
                problems.push(format!(
                    "docs/architecture.md: `{module}` may import `{other}` but does not"
                ));
            }
            // Modules of the same folder are layered; a part may import
            // its folder's own module.
            let parent = |m: &str| m.rsplit_once("::").map(|(p, _)| p.to_string());
            if parent(module).as_deref() == Some(other.as_str())
                || open.iter().any(|o| module.starts_with(o.as_str()))
            {
                continue;
            }
            match rows.get(other) {
                Some(o) if o.layer < row.layer => {}
                Some(o) => problems.push(format!(
                    "docs/architecture.md: `{module}` (layer {}) may import `{other}` (layer {}), not a lower layer",
                    row.layer, o.layer
                )),
                None => problems.push(format!("docs/architecture.md: `{module}` may import `{other}`, which has no row")),
            }
        }
    }

    for module in krate.modules.values() {
        let lines = fs::read_to_string(&module.file).map_or(0, |s| s.lines().count());
        if lines > MAX_LINES {
            let file = module.file.strip_prefix(root).unwrap().display();
            problems.push(format!("{file}: {lines} lines, more than {MAX_LINES}"));
        }
    }
    for o in &open {
        if !open_seen.contains(o) {
            problems.push(format!("docs/architecture.md names an open circle in `{o}`, but there is none: remove the line"));
        }
    }
    println!(
        "{} modules, {} imports between files ({} pairs of files), {} between units of a folder; {} not allowed by the table; {} circles between files, {} between folders (open ones named in the doc included)",
        krate.modules.len(),
        edges.len(),
        file_edges.len(),
        unit_edges.len(),
        upward,
        file_cycles.len(),
        unit_cycles.len()
    );
    if std::env::var_os("C4_PRINT_IMPORTS").is_some() {
        for ((a, b), ev) in &unit_edges {
            println!("{} -> {}: {}", name(a), name(b), ev.join("; "));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
