; Markdown: the outline of VS Code's Markdown language server.
;
; Every heading, wherever it stands (top level, list item, block quote), is a String symbol
; named "<hashes> <plain text>" (setext headings get the hashes of their level). `level` makes
; it span its whole section as VS Code's server does: from the start of its line to the end of
; the line before the next heading of the same or a higher level (the last ones to the end).
; Link reference definitions are Constant symbols named "[label]".

((atx_heading (atx_h1_marker) heading_content: (inline) @name) @symbol.string
  (#set! name "# {name}") (#set! name.normalize "markup") (#set! level "1"))
((atx_heading (atx_h2_marker) heading_content: (inline) @name) @symbol.string
  (#set! name "## {name}") (#set! name.normalize "markup") (#set! level "2"))
((atx_heading (atx_h3_marker) heading_content: (inline) @name) @symbol.string
  (#set! name "### {name}") (#set! name.normalize "markup") (#set! level "3"))
((atx_heading (atx_h4_marker) heading_content: (inline) @name) @symbol.string
  (#set! name "#### {name}") (#set! name.normalize "markup") (#set! level "4"))
((atx_heading (atx_h5_marker) heading_content: (inline) @name) @symbol.string
  (#set! name "##### {name}") (#set! name.normalize "markup") (#set! level "5"))
((atx_heading (atx_h6_marker) heading_content: (inline) @name) @symbol.string
  (#set! name "###### {name}") (#set! name.normalize "markup") (#set! level "6"))

((setext_heading heading_content: (paragraph) @name (setext_h1_underline)) @symbol.string
  (#set! name "# {name}") (#set! name.normalize "markup") (#set! level "1"))
((setext_heading heading_content: (paragraph) @name (setext_h2_underline)) @symbol.string
  (#set! name "## {name}") (#set! name.normalize "markup") (#set! level "2"))

; The range runs from the start of the label's line (where only blanks may stand before the
; label: none is found after a `>`) to the destination or title, without the line break after it.
((link_reference_definition (link_label) @name @symbol.constant (link_title) @range.end)
  (#set! range.start "line"))
((link_reference_definition (link_label) @name @symbol.constant (link_destination) @range.end)
  (#set! range.start "line"))
