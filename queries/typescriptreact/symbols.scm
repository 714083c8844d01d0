; TypeScript with JSX: the same outline as TypeScript.
; inherits: _typescript, _ecma
