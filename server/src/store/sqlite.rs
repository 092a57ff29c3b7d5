//! The SQLite engine of [`super::Store`]: one connection, the settings the store's
//! documentation gives, and the checks that the file at the path is still the one opened.
//!
//! SQLite cannot notice its file deleted or replaced under it (it goes on writing to the file
//! it opened, which a deleted file's name no longer reaches). The store remembers the file's
//! device and inode and checks them before every journal write and whenever asked
//! ([`super::Store::check_file`]): a deleted file is made again from the copy still open
//! (`VACUUM INTO`, then renamed into place), so nothing committed is lost; a file replaced by
//! another is refused ([`StoreError::Replaced`]) until the original is back at its path.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection};

use super::{BUSY_TIMEOUT, SQLITE_MIGRATIONS, StoreError};

/// The connection and the file it was opened on.
#[derive(Debug)]
pub(crate) struct SqliteDb {
    /// The connection; `None` while a deleted file is being made again (the copy then holds
    /// everything, and nothing may be written).
    conn: Option<SqliteConnection>,
    /// The file's path and its (device, inode) when opened; `None` in memory.
    file: Option<(PathBuf, (u64, u64))>,
    /// While a deleted file is being made again: the copy that holds everything.
    recovering: Option<PathBuf>,
}

/// The settings every connection to a file is opened with: the write-ahead log,
/// `synchronous=FULL`, [`BUSY_TIMEOUT`], no log line per statement (slow ones are still logged).
fn file_options(path: &Path) -> SqliteConnectOptions {
    SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(BUSY_TIMEOUT)
        .disable_statement_logging()
}

/// Opens `options` and brings the schema up to date. The migrations run on the connection
/// itself (`run_direct`): `Migrator::run`'s `Acquire` bound makes the journal writer's future,
/// which may reopen the file, not `Send` for every lifetime as `tokio::spawn` needs
/// (rust-lang/rust#102211).
async fn connect(options: &SqliteConnectOptions) -> Result<SqliteConnection, StoreError> {
    let mut conn = options.connect().await?;
    SQLITE_MIGRATIONS.run_direct(None, &mut conn, false).await?;
    Ok(conn)
}

/// The (device, inode) of the file at `path`.
fn file_id(path: &Path) -> std::io::Result<(u64, u64)> {
    let meta = std::fs::metadata(path)?;
    Ok((meta.dev(), meta.ino()))
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

impl SqliteDb {
    /// Opens (making it if missing) the file at `path`.
    pub(crate) async fn open_file(path: &Path) -> Result<SqliteDb, StoreError> {
        let conn = connect(&file_options(path)).await?;
        let id = file_id(path).map_err(|e| StoreError::Lost {
            path: path.to_owned(),
            cause: e.to_string(),
        })?;
        Ok(SqliteDb {
            conn: Some(conn),
            file: Some((path.to_owned(), id)),
            recovering: None,
        })
    }

    /// A database in memory, gone with the connection.
    pub(crate) async fn open_memory() -> Result<SqliteDb, StoreError> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.disable_statement_logging();
        Ok(SqliteDb {
            conn: Some(connect(&options).await?),
            file: None,
            recovering: None,
        })
    }

    /// The connection, unless a deleted file is still being made again.
    pub(crate) fn conn(&mut self) -> Result<&mut SqliteConnection, StoreError> {
        match (&mut self.conn, &self.recovering, &self.file) {
            (Some(conn), None, _) => Ok(conn),
            (_, copy, file) => Err(StoreError::Lost {
                path: file.as_ref().map(|(p, _)| p.clone()).unwrap_or_default(),
                cause: match copy {
                    Some(copy) => format!("still being made again from {}", copy.display()),
                    None => "the connection is closed".to_owned(),
                },
            }),
        }
    }

    /// See [`super::Store::check_file`]; `recreated` counts the files made again.
    pub(crate) async fn check_file(&mut self, recreated: &AtomicU64) -> Result<(), StoreError> {
        let Some((path, id)) = &self.file else {
            return Ok(());
        };
        let (path, id) = (path.clone(), *id);
        if self.recovering.is_some() {
            return self
                .finish_recovery(&path)
                .await
                .map_err(|cause| StoreError::Lost { path, cause });
        }
        match file_id(&path) {
            Ok(now) if now == id => Ok(()),
            Ok(_) => Err(StoreError::Replaced(path)),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                match self.recreate(&path, recreated).await {
                    Ok(()) => Ok(()),
                    Err(cause) => Err(StoreError::Lost { path, cause }),
                }
            }
            Err(err) => Err(StoreError::Lost {
                path,
                cause: err.to_string(),
            }),
        }
    }

    /// Makes the deleted file at `path` again from the copy this connection still has open: a
    /// consistent copy written next to it (`VACUUM INTO`), the old connection closed (which
    /// ends its write-ahead log), the copy renamed into place and opened.
    async fn recreate(&mut self, path: &Path, recreated: &AtomicU64) -> Result<(), String> {
        tracing::error!(path = %path.display(), "the database file was deleted; making it again from the open copy");
        let copy = with_suffix(path, ".recovering");
        let _ = std::fs::remove_file(&copy);
        let text = copy.to_str().ok_or("the database path is not UTF-8")?.to_owned();
        let conn = self.conn.as_mut().ok_or("the connection is closed")?;
        sqlx::query("VACUUM INTO $1")
            .bind(text)
            .execute(&mut *conn)
            .await
            .map_err(|e| format!("copying: {e}"))?;
        recreated.fetch_add(1, Ordering::Relaxed);
        // From here the copy holds everything: the connection is closed, and nothing may use
        // it until the copy is in place.
        self.recovering = Some(copy);
        if let Some(old) = self.conn.take() {
            // Closing the last connection checkpoints its log into the deleted file and removes
            // the log; a failure to close leaves nothing the copy lacks.
            let _ = old.close().await;
        }
        // Any log left (another program had it open) belongs to the deleted file, and must not
        // be read as the new file's.
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(with_suffix(path, suffix));
        }
        self.finish_recovery(path).await
    }

    /// Renames the copy [`SqliteDb::recreate`] made into place and opens it.
    async fn finish_recovery(&mut self, path: &Path) -> Result<(), String> {
        let Some(copy) = self.recovering.clone() else {
            return Ok(());
        };
        if copy.exists() {
            std::fs::rename(&copy, path).map_err(|e| format!("renaming the copy into place: {e}"))?;
        }
        self.conn = Some(connect(&file_options(path)).await.map_err(|e| e.to_string())?);
        let id = file_id(path).map_err(|e| e.to_string())?;
        self.file = Some((path.to_owned(), id));
        self.recovering = None;
        tracing::warn!(path = %path.display(), "the database file is back, with everything committed");
        Ok(())
    }
}
