//! How a query matches a name: the tiers (exact, prefix, word boundary, fuzzy), their scores,
//! and the keys the index stores to find each tier without scanning every symbol.

use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo_matcher::{Matcher, Utf32Str};

/// Scores of the tiers; each tier's scores lie below the one before it.
pub(crate) const EXACT: f32 = 1.0;
pub(crate) const EXACT_ANY_CASE: f32 = 0.95;
const PREFIX_BASE: f32 = 0.75;
const PREFIX_SPAN: f32 = 0.15;
const WORD_BASE: f32 = 0.55;
const WORD_SPAN: f32 = 0.15;
const FUZZY_BASE: f32 = 0.1;
const FUZZY_SPAN: f32 = 0.4;
/// The best score of a fuzzy match.
pub(crate) const FUZZY_MAX: f32 = FUZZY_BASE + FUZZY_SPAN;

/// A name's key for exact and prefix lookup: lowercase.
pub(crate) fn key(name: &str) -> String {
    name.to_lowercase()
}

/// A name or query folded for word lookup: lowercase, without `_`, `-` and `$`, so that
/// `user_name`, `userName` and `UserName` meet.
pub(crate) fn fold(text: &str) -> String {
    text.chars().filter(|c| !matches!(c, '_' | '-' | '$')).flat_map(char::to_lowercase).collect()
}

/// The folded suffixes of `name` that start at an inner word boundary (`getUserName`:
/// `username`, `name`; `get_user_name`: the same), and the whole folded name when folding
/// changed more than its case. These are the word index's keys.
pub(crate) fn word_keys(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut keys = Vec::new();
    for i in 1..chars.len() {
        let (prev, c) = (chars[i - 1], chars[i]);
        let boundary = (prev.is_lowercase() && c.is_uppercase())
            || (matches!(prev, '_' | '-' | '$' | '.' | ' ') && c.is_alphanumeric())
            || (prev.is_alphabetic() && c.is_ascii_digit())
            // `HTTPServer`: the `S` starts a word.
            || (i + 1 < chars.len()
                && prev.is_uppercase()
                && c.is_uppercase()
                && chars[i + 1].is_lowercase());
        if boundary {
            let key = fold(&chars[i..].iter().collect::<String>());
            if !key.is_empty() {
                keys.push(key);
            }
        }
    }
    let whole = fold(name);
    if whole != key(name) && !whole.is_empty() {
        keys.push(whole);
    }
    keys.sort();
    keys.dedup();
    keys
}

/// A set of the ASCII letters and digits of a text, case folded, and of the letters `a` to `y`
/// it holds twice (bits 39 to 63): a name can fuzzy-match a query only if its set holds the
/// query's, since a match places each of the query's characters on a character of its own.
/// The second bits cut the names a query with a doubled letter admits, each of which costs
/// an order check: of Theia's 38k names, `readers` 12,283 -> 8,131, `noError` 18,247 ->
/// 8,605, `relocate` only 10,897 -> 10,068.
pub(crate) fn char_mask(text: &str) -> u64 {
    let mut mask = 0u64;
    for b in text.bytes() {
        let bit = match b {
            b'a'..=b'z' => b - b'a',
            b'A'..=b'Z' => b - b'A',
            b'0'..=b'9' => 26 + b - b'0',
            b'_' => 36,
            _ if b >= 0x80 => 37,
            _ => 38,
        };
        if bit < 25 && mask & (1 << bit) != 0 {
            mask |= 1 << (39 + bit);
        }
        mask |= 1 << bit;
    }
    mask
}

/// Whether the bytes of `needle` occur in `hay` in order (a necessary condition for a fuzzy
/// match of a lowercase ASCII needle on a lowercase name): cheap, so it runs before nucleo.
/// A plain loop: names are short, and `memchr`'s setup per byte of the needle cost more than
/// the search itself.
pub(crate) fn subsequence(hay: &[u8], needle: &[u8]) -> bool {
    let mut hay = hay.iter();
    needle.iter().all(|b| hay.any(|h| h == b))
}

/// The score of an exact match.
pub(crate) fn exact(name: &str, query: &str) -> f32 {
    if name == query { EXACT } else { EXACT_ANY_CASE }
}

/// The score of a prefix match: higher the more of the name the query covers.
pub(crate) fn prefix(name_len: usize, query_len: usize) -> f32 {
    PREFIX_BASE + PREFIX_SPAN * ratio(query_len, name_len)
}

/// The score of a word-boundary match of a folded query on a folded suffix.
pub(crate) fn word(suffix_len: usize, query_len: usize) -> f32 {
    WORD_BASE + WORD_SPAN * ratio(query_len, suffix_len)
}

fn ratio(part: usize, whole: usize) -> f32 {
    if whole == 0 { 1.0 } else { (part as f32 / whole as f32).min(1.0) }
}

/// Fuzzy matching with nucleo (Helix's matcher), scores normalised by the query's match on
/// itself.
pub(crate) struct Fuzzy {
    atom: Atom,
    matcher: Matcher,
    best: f32,
    buf: Vec<char>,
    pub mask: u64,
}

impl Fuzzy {
    pub fn new(query: &str) -> Fuzzy {
        let atom =
            Atom::new(query, CaseMatching::Smart, Normalization::Smart, AtomKind::Fuzzy, false);
        let mut matcher = Matcher::default();
        let mut buf = Vec::new();
        let best = atom.score(Utf32Str::new(query, &mut buf), &mut matcher).unwrap_or(1).max(1);
        Fuzzy { atom, matcher, best: f32::from(best), buf, mask: char_mask(query) & !(1 << 38) }
    }

    /// The score of `name`, or `None` when it does not match.
    pub fn score(&mut self, name: &str) -> Option<f32> {
        let s = self.atom.score(Utf32Str::new(name, &mut self.buf), &mut self.matcher)?;
        Some(FUZZY_BASE + FUZZY_SPAN * (f32::from(s) / self.best).min(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_keys_split_camel_snake_and_acronyms() {
        assert_eq!(word_keys("getUserName"), ["name", "username"]);
        assert_eq!(word_keys("get_user_name"), ["getusername", "name", "username"]);
        assert_eq!(word_keys("HTTPServer"), ["server"]);
        assert_eq!(word_keys("parse2"), ["2"]);
        assert!(word_keys("balance").is_empty());
    }

    #[test]
    fn tiers_are_ordered() {
        let mut fuzzy = Fuzzy::new("blnc");
        let f = fuzzy.score("balance").unwrap();
        assert!(f <= FUZZY_MAX && fuzzy.score("blnc").unwrap() <= FUZZY_MAX);
        assert!(FUZZY_MAX < word(10, 1));
        assert!(f < word(10, 1) && word(10, 10) < prefix(10, 1) && prefix(10, 9) < EXACT_ANY_CASE);
        assert!(fuzzy.score("xyz").is_none());
        assert_eq!(exact("Ledger", "Ledger"), EXACT);
        assert_eq!(exact("Ledger", "ledger"), EXACT_ANY_CASE);
    }

    #[test]
    fn subsequences() {
        assert!(subsequence(b"getusername", b"gun"));
        assert!(!subsequence(b"getusername", b"ung"));
        assert!(subsequence(b"abc", b""));
        assert!(!subsequence(b"", b"a"));
    }

    #[test]
    fn masks_filter_impossible_names() {
        let q = char_mask("blc");
        assert_eq!(char_mask("balance") & q, q);
        assert_ne!(char_mask("xyz") & q, q);
        // A letter the query holds twice, the name must too.
        let q = char_mask("reader");
        assert_eq!(char_mask("ReadHeader") & q, q);
        assert_ne!(char_mask("ReadHead") & q, q);
        assert_ne!(char_mask("redate") & q, q);
    }

    proptest::proptest! {
        /// The filters before nucleo never drop a name it would match: every ASCII name a
        /// query fuzzy-matches holds the query's letters (the mask, doubled letters
        /// included) and holds them in order. Queries are drawn from the name itself (a
        /// subsequence, its case kept or lowered), and at random.
        #[test]
        fn the_filters_admit_every_name_nucleo_matches(
            name in "[a-zA-Z0-9_$.]{0,24}",
            picks in proptest::collection::vec(proptest::bool::weighted(0.4), 24),
            lower in proptest::bool::ANY,
            random in "[a-eA-E_r-t]{1,5}",
        ) {
            let from_name: String = name.chars().zip(&picks).filter(|(_, p)| **p).map(|(c, _)| c).collect();
            let from_name = if lower { from_name.to_lowercase() } else { from_name };
            for query in [from_name.as_str(), random.as_str()] {
                if query.is_empty() || query.contains('.') {
                    continue;
                }
                let mut fuzzy = Fuzzy::new(query);
                if fuzzy.score(&name).is_some() {
                    proptest::prop_assert_eq!(char_mask(&name) & fuzzy.mask, fuzzy.mask, "{} {}", name, query);
                    proptest::prop_assert!(subsequence(key(&name).as_bytes(), key(query).as_bytes()), "{} {}", name, query);
                }
            }
        }
    }
}
