// Writes grading-golden-input.json: the demo task assets, a tricky mini task (repeated leaf names,
// canonical ids inside texts, no paths), records and search queries. Run from the repository root:
//   node --import tsx src/envs/grading/__fixtures__/make-grading-golden-input.mts
// then `.venv/bin/python src/envs/grading/__fixtures__/make-grading-goldens.py`.
import { writeFileSync } from 'node:fs'
import { demoCorpusJson, demoGradingJson, demoRegistryJson, demoTaskConfigJson } from '../demo/demo-assets.js'
import { generateDemoSheet } from '../demo/generate-demo-rows.js'

const sheet = generateDemoSheet({ rows: 240, seed: 99 })
const records = sheet.rows
  .filter((row) => row.kind === 'labeled')
  .slice(0, 80)
  .map((row) => ({
    database_name: String(row.cells[0]),
    table_name: String(row.cells[2]),
    table_description: String(row.cells[3]),
    field_name: String(row.cells[4]),
    field_description: String(row.cells[5]),
    category_id: row.categoryId,
    level: row.level,
  }))
const tricky = {
  registry: {
    categories: [
      { category_id: 'fin:A1', name: '账户信息', description: '银行账户 fin:A1 主数据', path: ['Finance', 'Accounts'] },
      { category_id: 'hr:A1', name: '账户信息', description: 'HR accounts', path: ['Hr', 'Accounts'] },
      { category_id: 'fin:A10', name: 'Straße Daten', description: 'ΣΊΣΥΦΟΣ  ß ﬁ full-width ＡＢＣ', path: [] },
      { category_id: 'x:1', name: 'Payroll', description: '', path: ['Hr'] },
      { category_id: 'x:2', name: 'Ledger', description: 'general ledger', path: ['Finance'] },
      { category_id: 'x:3', name: '合同', description: '合同 fin:A10 与 fin:A1 的关系', path: ['Finance', 'Contracts'] },
    ],
  },
  corpus: {
    categories: [
      { category_id: 'fin:A1', name: '账户信息', description: '', descriptions: ['mentions hr:A1 and fin:A10'], examples: ['账号', 'IBAN'] },
      { category_id: 'hr:A1', name: '账户信息', description: '员工账户', descriptions: [], examples: [] },
      { category_id: 'fin:A10', name: 'Straße Daten', description: `${'长描述'.repeat(90)} tail`, descriptions: ['  spaced\u3000text\u0085x '], examples: ['a', 'b', 'c'] },
      { category_id: 'x:1', name: 'Payroll', description: 'salary payroll wages', descriptions: [], examples: ['月薪'] },
      { category_id: 'x:2', name: 'Ledger', description: 'ledger balance', descriptions: [], examples: [] },
      { category_id: 'x:3', name: '合同', description: '合同条款', descriptions: [], examples: ['合同号', '单价'], path: ['Finance'] },
    ],
  },
}
const queries = [
  ...records.slice(0, 60).map((record) => [record.field_name, record.table_name]),
  ['COIL_WEIGHT_T', 'PR_COIL_ACTUAL'],
  ['ｃｏｉｌ＿ｎｏ', 'pr_coil_actual'],
  ['  emp  name ', 'hr_employee'],
  ['员工姓名', ''],
  ['生产实绩', '生产实绩'],
  ['x', 'y'],
  ['ΣΊΣΥΦΟΣ', 'STRASSE'],
  ['straße daten', ''],
  ['账户信息', 'accounts'],
  ['合同', 'fin'],
]
const input = {
  demo: {
    registry: demoRegistryJson(),
    corpus: demoCorpusJson(),
    grading: demoGradingJson(),
    task: demoTaskConfigJson(),
  },
  tricky,
  records,
  queries,
  casefold: ['Straße', 'ΣΊΣΥΦΟΣ', 'ﬁ', 'İstanbul', 'ǅ', 'Ꭰ', '  A\u3000B\u0085C\u001fD\ufeffE  ', 'ＡＢＣ１２３'],
}
writeFileSync('src/envs/grading/__fixtures__/grading-golden-input.json', `${JSON.stringify(input, null, 1)}\n`)
