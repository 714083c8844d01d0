; TypeScript: the outline VS Code shows (tsserver navigation tree, VS Code conversion).
; inherits: _typescript, _ecma

; `<{ a: A }>x` (a type assertion, which TSX has not): the members of its object type, as after
; `as` (the seeds are in _typescript).
((type_assertion (_ (_ (_ name: (_) @name) @symbol.property) @_object) @_args)
  (#kind-eq? @_args "type_arguments") (#kind-eq? @_object "object_type")
  (#kind-eq? @symbol.property "property_signature") (#set! root.up "3"))
((type_assertion (_ (_ (_ name: (_) @name) @symbol.method) @_object) @_args)
  (#kind-eq? @_args "type_arguments") (#kind-eq? @_object "object_type")
  (#kind-eq? @symbol.method "method_signature") (#set! root.up "3"))
