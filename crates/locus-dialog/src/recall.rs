//! The recall API over an in-memory index of transcript files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use crate::error::RecallError;
use crate::model::{Format, Request, SessionInfo, Source, Track, Transcript, preview};
use crate::read::{LineLog, probe_cwds};
use crate::stores::{Binding, FileRef, IdHint, SideFiles, Stores, discover};
use crate::time::Timestamp;
use crate::warning::Warning;
use crate::workspace::{Workspace, gemini_hash};

/// A result with the warnings met while producing it (skipped lines, unreadable files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer<T> {
    /// The result.
    pub value: T,
    /// What was skipped on the way; never a reason to distrust `value`, only its
    /// completeness.
    pub warnings: Vec<Warning>,
}

/// One request of a session, with the session it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestAt {
    /// The session.
    pub session: SessionInfo,
    /// The request.
    pub request: Request,
    /// How many requests the session has.
    pub total_requests: usize,
}

/// Several requests of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requests {
    /// The session.
    pub session: SessionInfo,
    /// The requests, oldest first, each with its index in the whole session.
    pub requests: Vec<Request>,
    /// How many requests the session has.
    pub total_requests: usize,
    /// Whether `requests` is limited to those after the last compaction.
    pub since_compaction: bool,
}

/// Recall of the user's own requests from the transcripts of every store.
///
/// Keeps an index of the files it has read, keyed by path, size and modification time:
/// an unchanged file is not read again, a grown line log is read from where it stopped,
/// a rewritten one is read again. Nothing is written to disk. Safe to share between
/// threads; calls are serialised.
pub struct Recall {
    stores: Stores,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    files: HashMap<PathBuf, Entry>,
    side: SideFiles,
    /// The folders below the workspace roots by the name Gemini CLI's older releases give
    /// their project directories, kept for a few seconds.
    gemini_dirs: Option<GeminiDirs>,
}

/// Folders below a workspace's roots, by the SHA-256 of their path.
struct GeminiDirs {
    roots: Vec<PathBuf>,
    at: Instant,
    by_hash: HashMap<String, PathBuf>,
}

/// How long a walk of the workspace for Gemini project hashes is reused.
const GEMINI_WALK_TTL: Duration = Duration::from_secs(10);
/// How deep below a root, and how many folders at most, that walk goes.
const GEMINI_WALK_DEPTH: usize = 4;
const GEMINI_WALK_MAX: usize = 4096;

#[derive(Default)]
struct Entry {
    probe: Option<(u64, SystemTime, Vec<String>)>,
    parsed: Option<Parsed>,
}

struct Parsed {
    size: u64,
    mtime: SystemTime,
    body: Body,
}

enum Body {
    Lines(Box<LineLog>),
    Whole(Transcript),
    Failed(String),
}

impl Body {
    fn transcript(&self) -> Option<(&Transcript, &Track)> {
        match self {
            Body::Lines(log) => Some((&log.transcript, log.track())),
            Body::Whole(t) => Some((t, &t.track)),
            Body::Failed(_) => None,
        }
    }
}

/// A parsed session of a file, ready to report.
struct Found {
    info: SessionInfo,
    path: PathBuf,
    /// The time given to requests the transcript does not date (the oldest Codex rollouts):
    /// the session's own start, else the time in the file's name, else its modification time.
    undated: Timestamp,
}

impl Found {
    fn new(info: SessionInfo, file: &FileRef) -> Found {
        let undated = info
            .created
            .or_else(|| name_time(&file.path))
            .unwrap_or_else(|| Timestamp::from_system_time(file.mtime));
        Found { info, path: file.path.clone(), undated }
    }
}

/// The time in a Codex rollout's name (`rollout-2025-04-18T10-00-00-<uuid>.jsonl`), in UTC.
fn name_time(path: &Path) -> Option<Timestamp> {
    let name = path.file_name()?.to_str()?.strip_prefix("rollout-")?;
    let stamp = name.get(..19)?;
    let (date, time) = stamp.split_once('T')?;
    Timestamp::parse_rfc3339(&format!("{date}T{}Z", time.replace('-', ":")))
}

impl Recall {
    /// Recall over these stores, with an empty index.
    pub fn new(stores: Stores) -> Recall {
        Recall { stores, state: Mutex::new(State::default()) }
    }

    /// The stores searched.
    pub fn stores(&self) -> &Stores {
        &self.stores
    }

    /// The workspace's sessions with at least one request, most recently updated first;
    /// optionally of one source, at most `limit` of them. Sessions of other workspaces are
    /// never listed.
    pub fn list_sessions(
        &self,
        workspace: &Workspace,
        source: Option<Source>,
        limit: Option<usize>,
    ) -> Answer<Vec<SessionInfo>> {
        let mut state = self.lock();
        let mut warnings = Vec::new();
        let files = discover(&self.stores, &mut state.side, &mut warnings);
        state.prune(&files);
        let mut found = state.workspace_sessions(workspace, &files, source, &mut warnings);
        found.truncate(limit.unwrap_or(usize::MAX));
        for f in &found {
            warnings.extend(state.warnings_of(&f.path));
        }
        Answer { value: found.into_iter().map(|f| f.info).collect(), warnings }
    }

    /// The session a call is about: the one with this exact id (from any workspace), or
    /// without an id the current dialog, the workspace's most recently updated session.
    pub fn session(
        &self,
        workspace: &Workspace,
        session_id: Option<&str>,
    ) -> Result<Answer<SessionInfo>, RecallError> {
        self.with_session(workspace, session_id, |info, _| Ok(info.clone()))
    }

    /// The session's first request.
    pub fn first_request(
        &self,
        workspace: &Workspace,
        session_id: Option<&str>,
    ) -> Result<Answer<RequestAt>, RecallError> {
        self.with_session(workspace, session_id, |info, track| {
            let request =
                track.requests.first().cloned().ok_or(RecallError::FirstRequestNotAvailable)?;
            Ok(RequestAt { session: info.clone(), request, total_requests: track.requests.len() })
        })
    }

    /// The session's request at a 1-based `index`.
    pub fn request(
        &self,
        workspace: &Workspace,
        index: i64,
        session_id: Option<&str>,
    ) -> Result<Answer<RequestAt>, RecallError> {
        if index < 1 {
            return Err(RecallError::IndexTooSmall);
        }
        self.with_session(workspace, session_id, |info, track| {
            let total = track.requests.len();
            let request = usize::try_from(index - 1)
                .ok()
                .and_then(|i| track.requests.get(i))
                .cloned()
                .ok_or(RecallError::IndexOutOfRange { index, total })?;
            Ok(RequestAt { session: info.clone(), request, total_requests: total })
        })
    }

    /// The session's requests: all of them, or only those made after the last compaction
    /// (all of them when it was never compacted), which is what the agent's summary
    /// replaced least.
    pub fn requests(
        &self,
        workspace: &Workspace,
        session_id: Option<&str>,
        since_compaction: bool,
    ) -> Result<Answer<Requests>, RecallError> {
        self.with_session(workspace, session_id, |info, track| {
            let from =
                if since_compaction { track.compactions.last().map_or(0, |c| c.after) } else { 0 };
            Ok(Requests {
                session: info.clone(),
                requests: track.requests[from.min(track.requests.len())..].to_vec(),
                total_requests: track.requests.len(),
                since_compaction,
            })
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while reading leaves at worst a stale index entry; keep serving.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn with_session<T>(
        &self,
        workspace: &Workspace,
        session_id: Option<&str>,
        f: impl FnOnce(&SessionInfo, &Track) -> Result<T, RecallError>,
    ) -> Result<Answer<T>, RecallError> {
        let mut state = self.lock();
        let mut warnings = Vec::new();
        let files = discover(&self.stores, &mut state.side, &mut warnings);
        state.prune(&files);
        let found = match session_id.map(str::trim).filter(|s| !s.is_empty()) {
            Some(id) => state.by_id(workspace, &files, id)?,
            None => {
                let mut all = state.workspace_sessions(workspace, &files, None, &mut warnings);
                if all.is_empty() {
                    return Err(RecallError::NoActiveDialog);
                }
                all.swap_remove(0)
            }
        };
        warnings.extend(state.warnings_of(&found.path));
        let entry = state.files.get(&found.path).and_then(|e| e.parsed.as_ref());
        let Some((_, track)) = entry.and_then(|p| p.body.transcript()) else {
            return Err(RecallError::ChatDataNotAvailable {
                session: found.info.id.clone(),
                reason: "the transcript could not be read".into(),
            });
        };
        // Only the oldest Codex rollouts leave requests undated.
        let undated = found.info.format == Format::CodexRollout
            && track.requests.iter().any(|r| r.timestamp.is_none());
        let value = if !undated {
            f(&found.info, track)?
        } else {
            let mut dated = track.clone();
            for r in dated.requests.iter_mut().filter(|r| r.timestamp.is_none()) {
                r.timestamp = Some(found.undated);
            }
            f(&found.info, &dated)?
        };
        Ok(Answer { value, warnings })
    }
}

impl State {
    /// Forgets files that are gone from the stores.
    fn prune(&mut self, files: &[FileRef]) {
        if self.files.len() > files.len() {
            let present: std::collections::HashSet<&Path> =
                files.iter().map(|f| f.path.as_path()).collect();
            self.files.retain(|path, _| present.contains(path.as_path()));
        }
    }

    /// Every session of the workspace with a request (of one source, when given), most
    /// recent first, one per id.
    fn workspace_sessions(
        &mut self,
        workspace: &Workspace,
        files: &[FileRef],
        source: Option<Source>,
        warnings: &mut Vec<Warning>,
    ) -> Vec<Found> {
        let mut found: Vec<Found> = Vec::new();
        for file in files.iter().filter(|f| source.is_none_or(|s| f.format.source() == s)) {
            let nominated = match &file.binding {
                Binding::Cwd { claude_dir } => {
                    let cwds = self.probe(file);
                    cwds.iter().any(|c| workspace.root_of(Path::new(c)).is_some())
                        || (cwds.is_empty()
                            && claude_dir
                                .as_deref()
                                .is_some_and(|d| workspace.matches_claude_dir(d)))
                }
                Binding::Folders(folders) => folders.iter().any(|f| workspace.root_of(f).is_some()),
                Binding::GeminiHash(hash) => {
                    workspace.forms().any(|f| gemini_hash(f) == *hash)
                        || self.gemini_dirs(workspace).contains_key(hash)
                }
            };
            if !nominated {
                continue;
            }
            self.parse(file);
            match self.info(file, Some(workspace)) {
                Ok(Some(info)) if info.workspace_root.is_some() && info.requests_count > 0 => {
                    found.push(Found::new(info, file))
                }
                Ok(_) => {}
                Err(reason) => warnings.push(Warning::new(
                    &file.path,
                    None,
                    format!("session skipped: {reason}"),
                )),
            }
        }
        sort_and_dedup(&mut found);
        found
    }

    /// The session with exactly this id, from any workspace.
    fn by_id(
        &mut self,
        workspace: &Workspace,
        files: &[FileRef],
        id: &str,
    ) -> Result<Found, RecallError> {
        let mut found = Vec::new();
        let mut failure = None;
        for file in files.iter().filter(|f| f.id_hint.may_be(id)) {
            if matches!(file.binding, Binding::GeminiHash(_)) {
                self.gemini_dirs(workspace);
            }
            self.parse(file);
            match self.info(file, Some(workspace)) {
                Ok(Some(info)) if info.id == id => found.push(Found::new(info, file)),
                Ok(_) => {}
                Err(reason) if matches!(file.id_hint, IdHint::Exact(_)) => failure = Some(reason),
                Err(_) => {}
            }
        }
        sort_and_dedup(&mut found);
        match (found.into_iter().next(), failure) {
            (Some(f), _) => Ok(f),
            (None, Some(reason)) => {
                Err(RecallError::ChatDataNotAvailable { session: id.to_owned(), reason })
            }
            (None, None) => Err(RecallError::SessionNotFound(id.to_owned())),
        }
    }

    /// The folders below the workspace's roots by their Gemini project hash: Gemini CLI's
    /// older releases name a project's directory by the SHA-256 of the folder it ran in,
    /// which may lie below a root. A bounded walk (hidden folders and dependency or build
    /// folders skipped), reused for a few seconds.
    fn gemini_dirs(&mut self, workspace: &Workspace) -> &HashMap<String, PathBuf> {
        let roots: Vec<PathBuf> = workspace.roots().map(Path::to_path_buf).collect();
        let fresh = self
            .gemini_dirs
            .as_ref()
            .is_some_and(|d| d.roots == roots && d.at.elapsed() < GEMINI_WALK_TTL);
        if !fresh {
            let mut by_hash = HashMap::new();
            for (form, relative) in walk_below(workspace) {
                by_hash.entry(gemini_hash(&form.join(&relative))).or_insert(form.join(relative));
            }
            self.gemini_dirs = Some(GeminiDirs { roots, at: Instant::now(), by_hash });
        }
        &self.gemini_dirs.as_ref().expect("just set").by_hash
    }

    /// The working directories near the start and end of a file, cached by size and time.
    fn probe(&mut self, file: &FileRef) -> Vec<String> {
        let entry = self.files.entry(file.path.clone()).or_default();
        if let Some((size, mtime, cwds)) = &entry.probe
            && *size == file.size
            && *mtime == file.mtime
        {
            return cwds.clone();
        }
        let cwds = probe_cwds(&file.path, file.size).unwrap_or_default();
        entry.probe = Some((file.size, file.mtime, cwds.clone()));
        cwds
    }

    /// Brings a file's parsed state up to date: nothing to do when its size and time are
    /// unchanged, the appended lines when a line log grew, a full read otherwise.
    fn parse(&mut self, file: &FileRef) {
        let entry = self.files.entry(file.path.clone()).or_default();
        if let Some(p) = &entry.parsed
            && p.size == file.size
            && p.mtime == file.mtime
        {
            return;
        }
        let body = match (entry.parsed.take(), file.format.is_line_log()) {
            (previous, true) => {
                let mut log = match previous {
                    Some(Parsed { body: Body::Lines(log), .. }) => log,
                    _ => Box::new(LineLog::new(file.format)),
                };
                match log.update(&file.path, file.size) {
                    Ok(()) => Body::Lines(log),
                    Err(e) => Body::Failed(format!("cannot read: {e}")),
                }
            }
            (_, false) => {
                let read = match file.format {
                    Format::CopilotJson => crate::format::copilot::read_json(&file.path),
                    _ => crate::format::gemini::read_json(&file.path),
                };
                match read {
                    Ok(t) => Body::Whole(t),
                    Err(e) => Body::Failed(format!("cannot read: {e}")),
                }
            }
        };
        entry.parsed = Some(Parsed { size: file.size, mtime: file.mtime, body });
    }

    /// The session a parsed file holds, placed in the workspace when it belongs there.
    /// `Err` when the file could not be read.
    fn info(
        &self,
        file: &FileRef,
        workspace: Option<&Workspace>,
    ) -> Result<Option<SessionInfo>, String> {
        let Some(parsed) = self.files.get(&file.path).and_then(|e| e.parsed.as_ref()) else {
            return Ok(None);
        };
        let (t, track) = match &parsed.body {
            Body::Failed(reason) => return Err(reason.clone()),
            body => body.transcript().expect("not failed"),
        };
        let stem =
            file.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let hinted = match &file.id_hint {
            IdHint::Exact(id) => Some(id.clone()),
            _ => None,
        };
        // Claude Code's file is named after the session; its records may repeat another
        // session's id after a resume.
        let id = match file.format {
            Format::ClaudeJsonl => hinted.unwrap_or(stem),
            _ => t.id.clone().or(hinted).unwrap_or(stem),
        };
        let folders: Vec<PathBuf> = match &file.binding {
            Binding::Cwd { .. } => {
                let mut cwds: Vec<PathBuf> = t.cwds.iter().map(PathBuf::from).collect();
                if let Some(e) = self.files.get(&file.path)
                    && let Some((_, _, probed)) = &e.probe
                {
                    for p in probed.iter().map(PathBuf::from) {
                        if !cwds.contains(&p) {
                            cwds.push(p);
                        }
                    }
                }
                cwds
            }
            Binding::Folders(folders) => folders.clone(),
            Binding::GeminiHash(hash) => workspace
                .into_iter()
                .flat_map(|w| w.forms())
                .filter(|f| gemini_hash(f) == *hash)
                .map(Path::to_path_buf)
                .chain(self.gemini_dirs.as_ref().and_then(|d| d.by_hash.get(hash)).cloned())
                .collect(),
        };
        // The session's folder is where it started: the first folder it recorded that lies
        // in the workspace (a later `cd` or a subagent's directory does not move it).
        let placed = workspace.and_then(|w| {
            folders.iter().find_map(|f| w.root_of(f).map(|root| (root.to_path_buf(), f.clone())))
        });
        let (workspace_root, folder) = match placed {
            Some((root, folder)) => (Some(root), Some(folder)),
            None => (None, folders.first().cloned()),
        };
        let last_updated = t.updated.unwrap_or_else(|| Timestamp::from_system_time(file.mtime));
        let since = track.compactions.last().map_or(0, |c| c.after);
        Ok(Some(SessionInfo {
            id,
            source: file.format.source(),
            format: file.format,
            path: file.path.clone(),
            title: t.title().map(str::to_owned),
            preview: track.requests.first().map(|r| preview(&r.text, 80)),
            requests_count: track.requests.len(),
            created: t.created,
            last_updated,
            folder,
            workspace_root,
            compactions: track.compactions.len(),
            last_compaction: track.compactions.last().and_then(|c| c.timestamp),
            requests_since_compaction: track.requests.len() - since.min(track.requests.len()),
        }))
    }

    fn warnings_of(&self, path: &Path) -> Vec<Warning> {
        match self.files.get(path).and_then(|e| e.parsed.as_ref()).map(|p| &p.body) {
            Some(Body::Lines(log)) => log.warnings().collect(),
            Some(Body::Failed(reason)) => vec![Warning::new(path, None, reason.clone())],
            _ => Vec::new(),
        }
    }
}

/// Every folder below the workspace's roots (not the roots themselves), breadth first, to
/// [`GEMINI_WALK_DEPTH`] and at most [`GEMINI_WALK_MAX`] of them, paired with each spelling
/// of its root. Symbolic links are not followed; roots that hold every project (`/`, the
/// home directory) are not walked.
fn walk_below(workspace: &Workspace) -> Vec<(PathBuf, PathBuf)> {
    const SKIP: &[&str] =
        &["node_modules", "target", "build", "dist", "vendor", "__pycache__", "venv"];
    let mut out = Vec::new();
    for (root, forms) in workspace.walkable_roots() {
        let mut queue = std::collections::VecDeque::from([(PathBuf::new(), 0)]);
        while let Some((relative, depth)) = queue.pop_front() {
            if depth >= GEMINI_WALK_DEPTH || out.len() >= GEMINI_WALK_MAX {
                break;
            }
            let Ok(entries) = std::fs::read_dir(root.join(&relative)) else { continue };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let skip = name.to_str().is_none_or(|n| n.starts_with('.') || SKIP.contains(&n));
                if skip || !entry.file_type().is_ok_and(|t| t.is_dir()) {
                    continue;
                }
                let sub = relative.join(&name);
                out.extend(forms.iter().map(|f| (f.clone(), sub.clone())));
                queue.push_back((sub, depth + 1));
            }
        }
    }
    out
}

/// Most recently updated first; one session per source and id (a Copilot session may
/// exist in two generations, a Gemini one as `.json` and `.jsonl`): the newest wins, and
/// on a tie the line log, the newer format.
fn sort_and_dedup(found: &mut Vec<Found>) {
    found.sort_by(|a, b| {
        b.info
            .last_updated
            .cmp(&a.info.last_updated)
            .then_with(|| b.info.format.is_line_log().cmp(&a.info.format.is_line_log()))
            .then_with(|| a.path.cmp(&b.path))
    });
    let mut seen = std::collections::HashSet::new();
    found.retain(|f| seen.insert((f.info.source, f.info.id.clone())));
}
