#!/usr/bin/env node
/**
 * House metrics: what the style rules bound, counted from the TypeScript compiler's own syntax trees and
 * type checker (never by regular expression), so the same command gives the figures before and after a
 * clean-up (decision 0070).
 *
 *   node scripts/house-metrics.mjs [--root DIR] [--json FILE] [--limit N]
 *
 * Product code is every `.ts` file under `src/` except tests (`*.test.ts`) and `__fixtures__/`. It counts:
 * - functions over 80 lines: declarations, methods, constructors, accessors, function expressions and
 *   arrow functions, each measured from its first token to its last (a nested function is also counted
 *   on its own);
 * - files over 300 lines;
 * - `instanceof` sites whose right side is one of our own error classes (a class declared under `src/`
 *   that extends `Error`), outside the module that declares that class (the JSON also lists the sites
 *   inside it);
 * - plain `throw new Error(…)` (or `throw Error(…)`) of the global `Error`;
 * - runtime exports (functions, classes, variables, enums) that no other file uses. Uses are counted over
 *   `src/`, `test/`, `bench/` and `scripts/` (`../dist/x.js` in benches is read as `../src/x.ts`), through
 *   imports, re-exports, namespace and dynamic imports; a file the package exports is public and skipped.
 *
 * Prints a table per measure (the first `--limit` rows of each, default all) and, with `--json`, writes
 * every row to FILE.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'

const functionLimit = 80
const fileLimit = 300
const scannedFolders = ['src', 'test', 'bench', 'scripts']
const skippedFolders = new Set(['node_modules', 'dist', 'results', '.git'])

function listTypeScript(folder) {
  if (!existsSync(folder)) return []
  const files = []
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || skippedFolders.has(entry.name)) continue
    const path = join(folder, entry.name)
    if (entry.isDirectory()) files.push(...listTypeScript(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path)
  }
  return files
}

/** Package entry points (`exports` of package.json, `./dist/x.js` → `src/x.ts`): their exports are public. */
function packageEntries(root) {
  const packagePath = join(root, 'package.json')
  if (!existsSync(packagePath)) return new Set()
  const exports = JSON.parse(readFileSync(packagePath, 'utf8')).exports ?? {}
  const targets = typeof exports === 'string' ? [exports] : Object.values(exports).filter((value) => typeof value === 'string')
  return new Set(targets.map((target) => resolve(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))))
}

function createProgram(root) {
  const configPath = join(root, 'tsconfig.json')
  const config = ts.readConfigFile(configPath, ts.sys.readFile)
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'))
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const files = scannedFolders.flatMap((folder) => listTypeScript(join(root, folder)))
  const host = ts.createCompilerHost(options, true)
  const distRoot = join(root, 'dist') + sep
  // Benches import the build (`../dist/x.js`); read them against the sources so their uses count.
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSource) =>
    literals.map((literal) => {
      let name = literal.text
      const target = name.startsWith('.') ? resolve(dirname(containingFile), name) : ''
      if (target.startsWith(distRoot)) {
        const source = relative(dirname(containingFile), join(root, 'src', target.slice(distRoot.length)))
        name = source.startsWith('.') ? source : `./${source}`
      }
      const mode = ts.getModeForUsageLocation(containingSource, literal, compilerOptions)
      return ts.resolveModuleName(name, containingFile, compilerOptions, host, undefined, redirected, mode)
    })
  return ts.createProgram({ rootNames: files, options: { ...options, noEmit: true }, host })
}

const lineOf = (sourceFile, position) => sourceFile.getLineAndCharacterOfPosition(position).line + 1

function lineCount(sourceFile) {
  const starts = sourceFile.getLineStarts()
  return sourceFile.text.endsWith('\n') ? starts.length - 1 : starts.length
}

function isFunctionWithBody(node) {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  )
}

function nameText(name) {
  return name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined
}

/** A readable name: `f`, `Class.method`, `const x = () =>`, or the call an anonymous callback is passed to. */
function functionName(node, sourceFile) {
  const owner = node.parent && ts.isClassLike(node.parent) ? `${nameText(node.parent.name) ?? '<class>'}.` : ''
  if (ts.isConstructorDeclaration(node)) return `${owner}constructor`
  const own = nameText(node.name)
  if (own) return `${owner}${own}`
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return `${owner}${nameText(parent.name) ?? '<anonymous>'}`
  }
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(sourceFile)
    return `<callback of ${callee.length > 40 ? `${callee.slice(0, 37)}...` : callee}>`
  }
  return '<anonymous>'
}

function forEachNode(node, visit) {
  visit(node)
  ts.forEachChild(node, (child) => forEachNode(child, visit))
}

function resolveAlias(checker, symbol) {
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
}

/** Our error classes: classes declared under src/ whose base chain reaches the global `Error`. */
function errorClassTest({ program, checker, srcRoot }) {
  const cache = new Map()
  const extendsError = (symbol) => {
    const pending = [checker.getDeclaredTypeOfSymbol(symbol)]
    const seen = new Set()
    while (pending.length > 0) {
      const type = pending.pop()
      if (seen.has(type) || !(type.flags & ts.TypeFlags.Object)) continue
      seen.add(type)
      for (const base of checker.getBaseTypes(type) ?? []) {
        const declaration = base.symbol?.declarations?.[0]
        if (base.symbol?.name === 'Error' && declaration && program.isSourceFileDefaultLibrary(declaration.getSourceFile())) {
          return true
        }
        pending.push(base)
      }
    }
    return false
  }
  return (symbol) => {
    const declaration = symbol?.valueDeclaration
    if (!declaration || !ts.isClassDeclaration(declaration) || !declaration.getSourceFile().fileName.startsWith(srcRoot))
      return false
    if (!cache.has(symbol)) cache.set(symbol, extendsError(symbol))
    return cache.get(symbol)
  }
}

/** One product file's long functions, `instanceof` sites and plain `Error` throws. */
function scanFile(file, { program, checker, isOurErrorClass, at, rows }) {
  forEachNode(file, (node) => {
    if (isFunctionWithBody(node)) {
      const length = lineOf(file, node.end) - lineOf(file, node.getStart(file)) + 1
      if (length > functionLimit) rows.longFunctions.push({ ...at(file, node), name: functionName(node, file), lines: length })
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) {
      const right = ts.isPropertyAccessExpression(node.right) ? node.right.name : node.right
      const symbol = resolveAlias(checker, checker.getSymbolAtLocation(right))
      if (isOurErrorClass(symbol)) {
        const home = symbol.valueDeclaration.getSourceFile()
        const row = { ...at(file, node), errorClass: symbol.name, declaredIn: relative(dirname(file.fileName), home.fileName) }
        // A class tested inside its own module (its guards, a private control-flow error) is that module's business.
        ;(home === file ? rows.instanceofInOwnModule : rows.instanceofSites).push(row)
      }
    } else if (ts.isThrowStatement(node)) {
      const thrown = node.expression
      if ((ts.isNewExpression(thrown) || ts.isCallExpression(thrown)) && ts.isIdentifier(thrown.expression)) {
        const declaration = checker.getSymbolAtLocation(thrown.expression)?.declarations?.[0]
        if (
          thrown.expression.text === 'Error' &&
          declaration &&
          program.isSourceFileDefaultLibrary(declaration.getSourceFile())
        ) {
          rows.plainErrorThrows.push(at(file, node))
        }
      }
    }
  })
}

function measure(root) {
  const program = createProgram(root)
  const checker = program.getTypeChecker()
  const srcRoot = join(root, 'src') + sep
  const ours = program.getSourceFiles().filter((file) => !file.isDeclarationFile && file.fileName.startsWith(root + sep))
  const product = ours.filter(
    (file) =>
      file.fileName.startsWith(srcRoot) &&
      file.fileName.endsWith('.ts') &&
      !file.fileName.endsWith('.test.ts') &&
      !file.fileName.includes(`${sep}__fixtures__${sep}`),
  )
  const at = (file, node) => ({ file: relative(root, file.fileName), line: lineOf(file, node.getStart(file)) })
  const rows = { longFunctions: [], longFiles: [], instanceofSites: [], instanceofInOwnModule: [], plainErrorThrows: [] }
  const isOurErrorClass = errorClassTest({ program, checker, srcRoot })
  for (const file of product) {
    const lines = lineCount(file)
    if (lines > fileLimit) rows.longFiles.push({ file: relative(root, file.fileName), lines })
    scanFile(file, { program, checker, isOurErrorClass, at, rows })
  }
  const byLength = (a, b) => b.lines - a.lines || a.file.localeCompare(b.file)
  return {
    root,
    limits: { functionLines: functionLimit, fileLines: fileLimit },
    productFiles: product.length,
    longFunctions: rows.longFunctions.sort(byLength),
    longFiles: rows.longFiles.sort(byLength),
    instanceofSites: rows.instanceofSites,
    instanceofInOwnModule: rows.instanceofInOwnModule,
    plainErrorThrows: rows.plainErrorThrows,
    privateCandidates: unusedExports({ checker, ours, product, entries: packageEntries(root), at }),
  }
}

/** What an identifier refers to, where the checker's answer is a local stand-in for it. */
function referencedSymbol(checker, node) {
  const parent = node.parent
  // `{ name }` in an object literal: the value, not the new property.
  if (ts.isShorthandPropertyAssignment(parent) && parent.name === node) return checker.getShorthandAssignmentValueSymbol(parent)
  // `const { run } = await import('./x.js')`: the binding names a property of the module.
  if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === node) {
    return checker.getTypeAtLocation(parent.parent).getProperty(node.text) ?? checker.getSymbolAtLocation(node)
  }
  return checker.getSymbolAtLocation(node)
}

/** Runtime exports of product files (package entries excepted) that no other file refers to. */
function unusedExports({ checker, ours, product, entries, at }) {
  const candidates = new Map()
  const add = (file, symbol, node) => {
    if (symbol && symbol.flags & ts.SymbolFlags.Value && !candidates.has(symbol)) {
      candidates.set(symbol, {
        ...at(file, node),
        name: symbol.name,
        file: at(file, node).file,
        home: file,
        usedInOwnFile: false,
      })
    }
  }
  const exported = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export
  for (const file of product) {
    if (entries.has(file.fileName)) continue
    for (const statement of file.statements) {
      if (
        (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
        statement.name
      ) {
        if (exported(statement)) add(file, checker.getSymbolAtLocation(statement.name), statement)
      } else if (ts.isVariableStatement(statement) && exported(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) add(file, checker.getSymbolAtLocation(declaration.name), declaration)
        }
      } else if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && !statement.isTypeOnly) {
        for (const element of statement.exportClause && ts.isNamedExports(statement.exportClause)
          ? statement.exportClause.elements
          : []) {
          if (!element.isTypeOnly) add(file, checker.getExportSpecifierLocalTargetSymbol(element), element)
        }
      }
    }
  }
  const names = new Set([...candidates.values()].map((candidate) => candidate.name))
  const usedElsewhere = new Set()
  for (const file of ours) {
    forEachNode(file, (node) => {
      if (!ts.isIdentifier(node) || !names.has(node.text)) return
      const target = resolveAlias(checker, referencedSymbol(checker, node))
      const candidate = candidates.get(target)
      if (!candidate) return
      if (file !== candidate.home) usedElsewhere.add(target)
      else if (!target.declarations?.some((declaration) => declaration.name === node)) candidate.usedInOwnFile = true
    })
  }
  return [...candidates.entries()]
    .filter(([symbol]) => !usedElsewhere.has(symbol))
    .map(([, { home, ...row }]) => row)
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
}

function table(title, rows, columns, limit) {
  const lines = [`${title}: ${rows.length}`]
  const shown = rows.slice(0, limit)
  if (shown.length === 0) return lines.join('\n')
  const widths = columns.map((column) => Math.max(column.length, ...shown.map((row) => String(row[column]).length)))
  const format = (values) => `  ${values.map((value, index) => String(value).padEnd(widths[index])).join('  ')}`.trimEnd()
  lines.push(format(columns), ...shown.map((row) => format(columns.map((column) => row[column]))))
  if (rows.length > shown.length) lines.push(`  … ${rows.length - shown.length} more (--json FILE has every row)`)
  return lines.join('\n')
}

function report(result, limit) {
  return [
    `house metrics for ${result.root} (${result.productFiles} product files under src/)`,
    table(`functions over ${result.limits.functionLines} lines`, result.longFunctions, ['file', 'line', 'name', 'lines'], limit),
    table(`files over ${result.limits.fileLines} lines`, result.longFiles, ['file', 'lines'], limit),
    table(
      'instanceof on our error classes outside their own modules',
      result.instanceofSites,
      ['file', 'line', 'errorClass', 'declaredIn'],
      limit,
    ),
    table('plain throw new Error(...)', result.plainErrorThrows, ['file', 'line'], limit),
    table('runtime exports no other file uses', result.privateCandidates, ['file', 'line', 'name', 'usedInOwnFile'], limit),
  ].join('\n\n')
}

function parseArguments(argv) {
  const options = {
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    json: undefined,
    limit: Number.POSITIVE_INFINITY,
  }
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index]
    const value = argv[index + 1]
    if ((flag === '--root' || flag === '--json' || flag === '--limit') && value === undefined) {
      throw new Error(`${flag} needs a value`)
    }
    if (flag === '--root') options.root = resolve(value)
    else if (flag === '--json') options.json = resolve(value)
    else if (flag === '--limit') {
      options.limit = Number(value)
      if (!Number.isInteger(options.limit) || options.limit < 0) throw new Error(`--limit must be a whole number, got ${value}`)
    } else throw new Error(`unknown argument ${flag} (use --root DIR, --json FILE, --limit N)`)
    index++
  }
  return options
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const options = parseArguments(process.argv.slice(2))
    if (!existsSync(join(options.root, 'tsconfig.json'))) throw new Error(`no tsconfig.json in ${options.root}`)
    const result = measure(options.root)
    process.stdout.write(`${report(result, options.limit)}\n`)
    if (options.json) writeFileSync(options.json, `${JSON.stringify(result, null, 2)}\n`)
  } catch (error) {
    process.stderr.write(`house-metrics: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  }
}

export { measure }
