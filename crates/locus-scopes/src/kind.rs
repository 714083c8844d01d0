//! The closed list of symbol kinds: the LSP `SymbolKind`s, named as the LSP names them.

use std::fmt;

macro_rules! kinds {
    ($($variant:ident = $num:literal, $capture:literal;)*) => {
        /// A symbol's kind. Numbers and names are the LSP's; captures in query files use the
        /// snake_case form after `@symbol.` (for example `@symbol.enum_member`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs, reason = "each variant is the LSP SymbolKind of the same name")]
        pub enum SymbolKind { $($variant = $num,)* }

        impl SymbolKind {
            /// Every kind, in LSP order.
            pub const ALL: &'static [SymbolKind] = &[$(SymbolKind::$variant,)*];

            /// The LSP name, as editorContext prints it (`"EnumMember"`).
            pub fn name(self) -> &'static str {
                match self { $(SymbolKind::$variant => stringify!($variant),)* }
            }

            /// The LSP number (1 = File … 26 = TypeParameter).
            pub fn number(self) -> u8 {
                self as u8
            }

            /// The snake_case form used in query captures (`"enum_member"`).
            pub fn capture_name(self) -> &'static str {
                match self { $(SymbolKind::$variant => $capture,)* }
            }

            /// Parses the snake_case capture form.
            pub fn from_capture_name(s: &str) -> Option<SymbolKind> {
                match s { $($capture => Some(SymbolKind::$variant),)* _ => None }
            }

            /// Parses the LSP name (`"EnumMember"`).
            pub fn from_name(s: &str) -> Option<SymbolKind> {
                match s { $(stringify!($variant) => Some(SymbolKind::$variant),)* _ => None }
            }

            /// Parses the LSP number.
            pub fn from_number(n: u64) -> Option<SymbolKind> {
                match n { $($num => Some(SymbolKind::$variant),)* _ => None }
            }
        }
    };
}

kinds! {
    File = 1, "file";
    Module = 2, "module";
    Namespace = 3, "namespace";
    Package = 4, "package";
    Class = 5, "class";
    Method = 6, "method";
    Property = 7, "property";
    Field = 8, "field";
    Constructor = 9, "constructor";
    Enum = 10, "enum";
    Interface = 11, "interface";
    Function = 12, "function";
    Variable = 13, "variable";
    Constant = 14, "constant";
    String = 15, "string";
    Number = 16, "number";
    Boolean = 17, "boolean";
    Array = 18, "array";
    Object = 19, "object";
    Key = 20, "key";
    Null = 21, "null";
    EnumMember = 22, "enum_member";
    Struct = 23, "struct";
    Event = 24, "event";
    Operator = 25, "operator";
    TypeParameter = 26, "type_parameter";
}

impl fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
