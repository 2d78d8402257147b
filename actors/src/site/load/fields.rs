//! Reading TOML tables field by field, so every bad field of a file is reported with its
//! path, and turning toml/serde messages into words an owner understands.

use serde::de::DeserializeOwned;

use crate::site::SiteProblem;

/// The problems found so far.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<SiteProblem>);

impl Problems {
    /// Records one problem.
    pub fn add(&mut self, file: &str, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(SiteProblem { file: file.to_string(), field: field.into(), message: message.into() });
    }

    /// Records a deserialisation error of the value at `prefix`.
    pub fn add_de(&mut self, file: &str, prefix: &str, error: &toml::de::Error) {
        let (field, message) = describe(error, prefix);
        self.add(file, field, message);
    }
}

/// Joins two field paths with a dot (either may be empty).
pub fn join(prefix: &str, key: &str) -> String {
    match (prefix.is_empty(), key.is_empty()) {
        (true, _) => key.to_string(),
        (_, true) => prefix.to_string(),
        _ => format!("{prefix}.{key}"),
    }
}

/// The field path and an owner-readable message of a deserialisation error.
///
/// Errors from `Value::try_into` end with ``in `a.b` `` naming the nested keys; missing and
/// unknown field errors name the field itself, which is appended to the path.
pub fn describe(error: &toml::de::Error, prefix: &str) -> (String, String) {
    let display = error.to_string();
    let keys = display.rsplit_once("\nin `").and_then(|(_, rest)| rest.trim_end().strip_suffix('`')).unwrap_or("");
    let path = join(prefix, keys);
    let message = error.message().trim();
    if let Some(field) = between(message, "missing field `", "`") {
        return (join(&path, field), "is required".into());
    }
    if let Some(field) = between(message, "unknown field `", "`") {
        let expected = message.split_once(", expected ").map(|(_, e)| e.replace('`', "")).unwrap_or_default();
        let hint = if expected.is_empty() { String::new() } else { format!(" (expected {expected})") };
        return (join(&path, field), format!("is not a known field{hint}"));
    }
    if let Some(variant) = between(message, "unknown variant `", "`") {
        let expected = message.split_once(", expected ").map(|(_, e)| e.replace('`', "")).unwrap_or_default();
        return (path, format!("'{variant}' is not allowed here (expected {expected})"));
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return (path, format!("should be {}, not {found}", plain_type(expected)));
        }
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return (path, format!("should be {}, not {found}", plain_type(expected)));
        }
    }
    (path, message.to_string())
}

/// Serde's name of a type, as an owner would say it.
fn plain_type(expected: &str) -> String {
    match expected {
        "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64" | "usize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a boolean" | "bool" => "true or false".into(),
        "a sequence" => "a list".into(),
        "a map" => "a table".into(),
        other if other.starts_with("struct ") => "a table".into(),
        other => other.to_string(),
    }
}

/// The text between `start` and the next `end` in `text`, if `text` contains `start`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let len = text[from..].find(end)?;
    Some(&text[from..from + len])
}

/// Describes a syntax error of a whole file, with its line and column.
pub fn syntax_message(error: &toml::de::Error, text: &str) -> String {
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
            format!("TOML syntax error at line {line}, column {column}: {}", error.message().trim())
        }
        None => format!("TOML syntax error: {}", error.message().trim()),
    }
}

/// A table whose fields are taken one by one; what is left at the end is unknown.
pub struct Fields<'p> {
    /// The fields not yet taken.
    table: toml::Table,
    /// The file, for problems.
    file: String,
    /// The path of this table inside the file.
    prefix: String,
    /// Where problems go.
    problems: &'p mut Problems,
}

impl<'p> Fields<'p> {
    /// Starts reading `table`, found at `prefix` in `file`.
    pub fn new(table: toml::Table, file: &str, prefix: &str, problems: &'p mut Problems) -> Self {
        Self { table, file: file.to_string(), prefix: prefix.to_string(), problems }
    }

    /// The path of `key` in this table.
    pub fn path(&self, key: &str) -> String {
        join(&self.prefix, key)
    }

    /// Takes a required field; reports it when missing or invalid.
    pub fn required<T: DeserializeOwned>(&mut self, key: &str) -> Option<T> {
        match self.table.remove(key) {
            Some(value) => self.convert(key, value),
            None => {
                let path = self.path(key);
                self.problems.add(&self.file, path, "is required");
                None
            }
        }
    }

    /// Takes an optional field; `None` when missing, reported and `None` when invalid.
    pub fn optional<T: DeserializeOwned>(&mut self, key: &str) -> Option<T> {
        let value = self.table.remove(key)?;
        self.convert(key, value)
    }

    /// Takes an optional field, or its default when missing or invalid.
    pub fn or_default<T: DeserializeOwned + Default>(&mut self, key: &str) -> T {
        self.optional(key).unwrap_or_default()
    }

    /// Takes a field without converting it.
    pub fn raw(&mut self, key: &str) -> Option<toml::Value> {
        self.table.remove(key)
    }

    /// Reports every field not taken as unknown.
    pub fn finish(self) {
        for key in self.table.keys() {
            self.problems.add(&self.file, join(&self.prefix, key), "is not a known field");
        }
    }

    /// The fields not taken, for a parser that checks them itself.
    pub fn into_rest(self) -> toml::Table {
        self.table
    }

    fn convert<T: DeserializeOwned>(&mut self, key: &str, value: toml::Value) -> Option<T> {
        match value.try_into() {
            Ok(parsed) => Some(parsed),
            Err(error) => {
                let path = self.path(key);
                self.problems.add_de(&self.file, &path, &error);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)] // only the errors matter here
    struct Sample {
        price: u64,
        option_values: Vec<String>,
    }

    fn error_of(src: &str) -> (String, String) {
        let value: toml::Value = toml::from_str(src).expect("test input is valid TOML");
        let error = value.try_into::<Sample>().expect_err("test input is invalid");
        describe(&error, "product")
    }

    #[test]
    fn missing_and_unknown_fields_are_named_in_the_path() {
        assert_eq!(error_of("price = 1"), ("product.optionValues".into(), "is required".into()));
        let (field, message) = error_of("price = 1\noptionValues = []\ncolour = 'red'");
        assert_eq!(field, "product.colour");
        assert!(message.starts_with("is not a known field"), "{message}");
    }

    #[test]
    fn wrong_types_are_described_plainly() {
        let (field, message) = error_of("price = 'cheap'\noptionValues = []");
        assert_eq!(field, "product.price");
        assert!(message.contains("a whole number"), "{message}");
    }

    #[test]
    fn syntax_errors_give_line_and_column() {
        let text = "title = 'a'\nurl = \n";
        let error = toml::from_str::<toml::Table>(text).expect_err("invalid TOML");
        assert!(syntax_message(&error, text).contains("line 2"), "{}", syntax_message(&error, text));
    }
}
