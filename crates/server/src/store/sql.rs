//! What both databases share: each statement is written once, in the SQL
//! that SQLite and PostgreSQL both read (`$N` placeholders, `ON CONFLICT`
//! upserts, `TRUE`/`FALSE`, `CAST`), with parameters as [`Value`]s and rows
//! read back as [`Row`]s. A backend only runs them ([`Session`]).

use super::StoreError;

/// A statement's parameter, bound by each database as its own type.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    Null,
    Text(String),
    Int(i64),
    Real(f64),
    Flag(bool),
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Flag(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// The parameters of a statement, in placeholder order (an array).
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        [$($crate::store::sql::Value::from($value)),*]
    };
}
pub(super) use params;

/// One value of a row as read back.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Bytes(Vec<u8>),
    Flag(bool),
}

/// A row of either database, read by column index. SQLite keeps flags as
/// integers and may keep a whole real as an integer: both read as asked.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Row(pub Vec<Cell>);

impl Row {
    fn cell(&self, i: usize) -> Result<&Cell, StoreError> {
        self.0
            .get(i)
            .ok_or_else(|| StoreError::Corrupt(format!("no column {i}")))
    }

    fn wrong(&self, i: usize, wanted: &str) -> StoreError {
        StoreError::Corrupt(format!("column {i} is {:?}, not {wanted}", self.0.get(i)))
    }

    pub fn text(&self, i: usize) -> Result<String, StoreError> {
        self.maybe_text(i)?.ok_or_else(|| self.wrong(i, "text"))
    }

    pub fn maybe_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.cell(i)? {
            Cell::Null => Ok(None),
            Cell::Text(v) => Ok(Some(v.clone())),
            _ => Err(self.wrong(i, "text")),
        }
    }

    pub fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.maybe_int(i)?
            .ok_or_else(|| self.wrong(i, "an integer"))
    }

    pub fn maybe_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.cell(i)? {
            Cell::Null => Ok(None),
            Cell::Int(v) => Ok(Some(*v)),
            _ => Err(self.wrong(i, "an integer")),
        }
    }

    pub fn real(&self, i: usize) -> Result<f64, StoreError> {
        match self.cell(i)? {
            Cell::Real(v) => Ok(*v),
            Cell::Int(v) => Ok(*v as f64),
            _ => Err(self.wrong(i, "a number")),
        }
    }

    pub fn maybe_real(&self, i: usize) -> Result<Option<f64>, StoreError> {
        match self.cell(i)? {
            Cell::Null => Ok(None),
            _ => self.real(i).map(Some),
        }
    }

    pub fn flag(&self, i: usize) -> Result<bool, StoreError> {
        match self.cell(i)? {
            Cell::Flag(v) => Ok(*v),
            Cell::Int(v) => Ok(*v != 0),
            _ => Err(self.wrong(i, "a flag")),
        }
    }

    /// A count or turn that must fit in 32 bits.
    pub fn count(&self, i: usize) -> Result<u32, StoreError> {
        let v = self.int(i)?;
        u32::try_from(v).map_err(|_| StoreError::Corrupt(format!("column {i} holds {v}")))
    }
}

/// What a write must have touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Touches {
    Any,
    /// At least one row, else the thing is gone (another request was first).
    One(&'static str),
}

impl Touches {
    pub(super) fn check(self, rows: u64) -> Result<(), StoreError> {
        match self {
            Touches::One(what) if rows == 0 => Err(StoreError::Gone(what.to_string())),
            _ => Ok(()),
        }
    }
}

/// A write with its parameters.
#[derive(Clone, Debug)]
pub(super) struct Statement {
    pub sql: &'static str,
    pub params: Vec<Value>,
    pub touches: Touches,
}

impl Statement {
    pub fn new(sql: &'static str, params: impl Into<Vec<Value>>) -> Statement {
        Statement {
            sql,
            params: params.into(),
            touches: Touches::Any,
        }
    }

    /// A statement that fails with [`StoreError::Gone`] and `what` when it touches no row.
    pub fn one(sql: &'static str, params: impl Into<Vec<Value>>, what: &'static str) -> Statement {
        Statement {
            sql,
            params: params.into(),
            touches: Touches::One(what),
        }
    }
}

/// A connection or transaction of either database.
pub(super) trait Session {
    /// Runs a write; the number of rows it touched.
    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;

    /// Runs a query; its rows.
    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError>;

    /// Runs `statement` and checks what it touched.
    async fn run(&self, statement: &Statement) -> Result<(), StoreError> {
        let rows = self.execute(statement.sql, &statement.params).await?;
        statement.touches.check(rows)
    }

    /// The first row of a query, if any.
    async fn query_opt(&self, sql: &str, params: &[Value]) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params).await?.into_iter().next())
    }
}

/// `$N` as SQLite's `?N`: PostgreSQL's numbered placeholders, which SQLite
/// would read as names numbered by first appearance.
pub(super) fn sqlite_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_placeholders_keep_their_numbers_in_sqlite() {
        assert_eq!(
            sqlite_placeholders("SELECT $2, '$x' WHERE a = $10 OR b = $1"),
            "SELECT ?2, '$x' WHERE a = ?10 OR b = ?1"
        );
    }

    #[test]
    fn rows_read_flags_and_reals_as_either_database_keeps_them() {
        let row = Row(vec![
            Cell::Int(1),
            Cell::Flag(false),
            Cell::Int(3),
            Cell::Null,
        ]);
        assert!(row.flag(0).unwrap());
        assert!(!row.flag(1).unwrap());
        assert_eq!(row.real(2).unwrap(), 3.0);
        assert_eq!(row.maybe_text(3).unwrap(), None);
        assert!(matches!(row.text(3), Err(StoreError::Corrupt(_))));
        assert!(matches!(row.int(9), Err(StoreError::Corrupt(_))));
        assert_eq!(Row(vec![Cell::Int(-1)]).count(0).ok(), None);
    }

    #[test]
    fn a_statement_that_touches_nothing_says_what_is_gone() {
        assert!(matches!(Touches::One("x").check(0), Err(StoreError::Gone(w)) if w == "x"));
        assert!(Touches::One("x").check(1).is_ok());
        assert!(Touches::Any.check(0).is_ok());
    }

    #[test]
    fn options_bind_as_null() {
        assert_eq!(Value::from(None::<String>), Value::Null);
        assert_eq!(Value::from(Some(3i64)), Value::Int(3));
        assert_eq!(
            params!["a", 2u32, true],
            [Value::Text("a".into()), Value::Int(2), Value::Flag(true)]
        );
    }
}
