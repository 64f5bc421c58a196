//! The server's layers (docs/architecture.md): read every `crate::` path
//! in `crates/server/src` and fail on an import that points to a higher
//! layer, or on files that import each other in a circle. Test modules
//! (from the first `#[cfg(test)]` on) do not count: a test may reach up.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first: a file may import from its own layer and
/// from those before it. A layer is a top-level module of the crate.
const LAYERS: &[&[&str]] = &[
    &["base"],
    &["game"],
    &["store"],
    &["accounts"],
    &["round"],
    &["cluster"],
    &["hub"],
    &["tournament"],
    &["http"],
    &["lichess"],
    &["bot", "loadtest"],
    &[""],
];

/// A module path (`hub::lobby`, `""` for the crate root) and its source.
type Files = BTreeMap<String, String>;

fn read_crate(root: &Path) -> Files {
    let mut files = Files::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            files.insert(parts.join("::"), std::fs::read_to_string(&path).unwrap());
        }
    }
    files
}

/// The `crate::` paths of `text` outside its tests and comments, with
/// grouped imports (`use crate::{a::B, c}`) split.
fn crate_paths(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let item = item.trim();
                if !item.is_empty() {
                    paths.push(item.to_string());
                }
            }
            rest = &group[end..];
            continue;
        }
        let len = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(after.len());
        paths.push(after[..len].trim_end_matches(':').to_string());
        rest = &after[len..];
    }
    paths
}

/// The longest module of `files` that `path` names.
fn module_of<'a>(files: &'a Files, path: &str) -> Option<&'a str> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|m| files.get_key_value(&m).map(|(k, _)| k.as_str()))
}

/// Each module's imports of other modules.
fn imports(files: &Files) -> BTreeMap<&str, BTreeSet<&str>> {
    files
        .iter()
        .map(|(module, text)| {
            let targets = crate_paths(text)
                .iter()
                .filter_map(|p| module_of(files, p))
                .filter(|t| t != module && !t.is_empty())
                .collect();
            (module.as_str(), targets)
        })
        .collect()
}

fn layer_of(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or_default();
    LAYERS.iter().position(|layer| layer.contains(&top))
}

/// What is wrong: modules in no layer, upward imports, circles.
fn faults(files: &Files) -> Vec<String> {
    let graph = imports(files);
    let mut faults = Vec::new();
    for (from, targets) in &graph {
        let Some(own) = layer_of(from) else {
            faults.push(format!("{from} is in no layer"));
            continue;
        };
        for to in targets {
            if layer_of(to).is_some_and(|l| l > own) {
                faults.push(format!("{from} imports {to}, a higher layer"));
            }
        }
    }
    for circle in circles(&graph) {
        faults.push(format!("circle: {}", circle.join(", ")));
    }
    faults
}

/// The strongly connected components of more than one module (Tarjan).
fn circles<'a>(graph: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    struct Walk<'a, 'g> {
        graph: &'g BTreeMap<&'a str, BTreeSet<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<&'a str>>,
    }
    impl<'a> Walk<'a, '_> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            for &w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for &v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

#[test]
fn the_server_imports_only_downwards_and_without_circles() {
    let files = read_crate(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(files.len() > 40, "read {} files", files.len());
    let faults = faults(&files);
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

fn synthetic(files: &[(&str, &str)]) -> Files {
    files
        .iter()
        .map(|(m, t)| (m.to_string(), t.to_string()))
        .collect()
}

#[test]
fn the_checker_finds_an_upward_import_and_a_circle() {
    let clean = synthetic(&[
        ("", "pub mod game; pub mod hub;"),
        ("game", "pub mod event;"),
        ("game::event", "use crate::base::secret;"),
        ("base", ""),
        ("base::secret", ""),
        (
            "hub",
            "use crate::game::event::Event;\nuse crate::{base::secret, game};",
        ),
    ]);
    assert_eq!(faults(&clean), Vec::<String>::new());

    // The same files, and one import from the game up to the hub.
    let mut upward = clean.clone();
    upward.insert(
        "game::event".into(),
        "use crate::base::secret;\nuse crate::hub::Hub;".into(),
    );
    let found = faults(&upward);
    assert!(found.contains(&"game::event imports hub, a higher layer".to_string()));
    assert!(
        found.contains(&"circle: game::event, hub".to_string()),
        "{found:?}"
    );

    // A circle inside one layer, through a grouped import.
    let mut circle = clean.clone();
    circle.insert(
        "base::secret".into(),
        "use crate::{base::signing::Key};".into(),
    );
    circle.insert(
        "base::signing".into(),
        "fn f() { crate::base::secret::new(); }".into(),
    );
    assert_eq!(
        faults(&circle),
        vec!["circle: base::secret, base::signing".to_string()]
    );

    // Comments and tests do not count; an unknown top module does.
    let mut quiet = clean.clone();
    quiet.insert(
        "base::secret".into(),
        "// crate::hub::Hub\n#[cfg(test)]\nmod tests { use crate::hub::Hub; }".into(),
    );
    quiet.insert("extra".into(), String::new());
    assert_eq!(faults(&quiet), vec!["extra is in no layer".to_string()]);
}
