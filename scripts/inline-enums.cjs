// A build transformer (tsconfig's "plugins", run by ts-patch's tspc): every reference to a member of one of the
// project's enums becomes the member's value, `Op.ADD` → `1 /* Op.ADD */`, as tsc does for const enums when it sees the
// whole program. tsc does not here: verbatimModuleSyntax implies isolatedModules, under which it emits a property load.
// That load costs the interpreter its speed: V8 compiles a `switch` to a jump table only when every case is a number
// literal, and with `case Op.ADD:` labels bench:evm ran 4–47% slower (issue 30 item 4). The enum objects are still
// emitted, so a reverse lookup (`Op[op]`, the opcode names) works; only constant member reads are replaced.
// Tests run the sources through vitest's per-file transpiler, which keeps the property loads: the same values, slower.

/**
 * @param {import('typescript').Program} program
 * @param {unknown} _config
 * @param {{ ts: typeof import('typescript') }} extras
 * @returns {import('typescript').TransformerFactory<import('typescript').SourceFile>}
 */
module.exports = function inlineEnums(program, _config, { ts }) {
  const checker = program.getTypeChecker()

  /** The member's value when `node` reads a member of an enum declared in the project's sources, else undefined. */
  function memberValue(node) {
    const original = ts.getOriginalNode(node)
    if (original.pos < 0 || !(ts.isPropertyAccessExpression(original) || ts.isElementAccessExpression(original))) return undefined
    // `Op['ADD']` reads a member; `table[Op.ADD]` reads the table (its index, a member, is replaced on its own).
    if (ts.isElementAccessExpression(original) && !ts.isStringLiteralLike(original.argumentExpression)) return undefined
    const key = ts.isPropertyAccessExpression(original) ? original.name : original.argumentExpression
    const symbol = checker.getSymbolAtLocation(key)
    if (symbol === undefined || (symbol.flags & ts.SymbolFlags.EnumMember) === 0) return undefined
    const declaration = symbol.valueDeclaration
    if (declaration === undefined || !ts.isEnumMember(declaration) || declaration.getSourceFile().isDeclarationFile) return undefined
    // Asked of the member's declaration: asked of the reference, the checker answers for const enums only.
    const value = checker.getConstantValue(declaration)
    return value === undefined ? undefined : { value, text: original.getText() }
  }

  function literal(value, text) {
    const node =
      typeof value === 'string'
        ? ts.factory.createStringLiteral(value)
        : value < 0
          ? ts.factory.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, ts.factory.createNumericLiteral(-value))
          : ts.factory.createNumericLiteral(value)
    return ts.addSyntheticTrailingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, ` ${text} `, false)
  }

  return (context) => (sourceFile) => {
    if (sourceFile.isDeclarationFile) return sourceFile
    const visit = (node) => {
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const member = memberValue(node)
        if (member !== undefined) return literal(member.value, member.text)
      }
      return ts.visitEachChild(node, visit, context)
    }
    return ts.visitNode(sourceFile, visit)
  }
}
