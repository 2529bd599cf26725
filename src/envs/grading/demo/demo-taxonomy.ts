/**
 * @module envs/grading: the synthetic steel-maker taxonomy (32 leaves, levels L1–L4) and the systems its
 * tables live in. Everything here is fabricated; ids mimic the original's A/B/C code style.
 */
import { type DemoLeaf, demoLeafSchema } from './demo-leaf.js'
import managementLeaves from './demo-leaves-management.json' with { type: 'json' }
import productionLeaves from './demo-leaves-production.json' with { type: 'json' }

/** The demo dataset's name (configuration, not code: any `[a-z][a-z0-9_-]*` name works). */
export const demoDatasetName = 'steel_demo'

/**
 * Leaves in registry order (which fixes the choice ids): part 1, research and production data domains;
 * part 2, operations, management and external data domains.
 */
export const demoLeaves: readonly DemoLeaf[] = demoLeafSchema.array().parse([...productionLeaves, ...managementLeaves])

/** `[name, description]` of each source system; tables are replicated into the warehouse layers. */
export const demoDatabases: Readonly<Record<string, string>> = {
  mes_prod: '制造执行系统生产库',
  erp_main: 'ERP 主数据库',
  scm_db: '供应链与物流系统库',
  ems_db: '能源环保管控系统库',
  hrm_db: '人力资源系统库',
  lims_db: '实验室与研发管理系统库',
  dw_ods: '数据仓库贴源层',
  dw_dwd: '数据仓库明细层',
}

/** Warehouse layers every source table is copied into. */
export const warehouseDatabases = ['dw_ods', 'dw_dwd'] as const

export const demoLevels = [
  ['L1', '一级（公开）：可对外公开或在集团内自由共享的数据，泄露基本无影响。'],
  ['L2', '二级（内部）：仅限企业内部使用的一般业务数据，泄露对组织权益造成轻微影响。'],
  ['L3', '三级（敏感）：涉及核心工艺、经营、客户或设施安全的敏感数据，泄露对组织权益造成严重影响。'],
  ['L4', '四级（高度敏感）：敏感个人信息等，泄露可能严重损害个人权益或触发合规事件。'],
] as const

/** Retired or never-standardised labels annotators still use: they resolve to nothing. */
export const unresolvableLabels = ['废钢回收利用', '其他', '待定分类', '历史遗留数据'] as const

/** The placeholder label annotators wrote when unsure. */
export const placeholderLabel = '——'

/** Spreadsheet headers, in column order. */
export const demoHeaders = [
  '数据库名',
  '数据库描述',
  '表名',
  '表描述',
  '字段名',
  '字段描述',
  '字段类型',
  '一级分类',
  '二级分类',
  '三级分类',
  '四级分类',
  '分级',
] as const

/** Header → standard field: the mapping file of the demo. */
export const demoMapping: Readonly<Record<(typeof demoHeaders)[number], string>> = {
  数据库名: 'database_name',
  数据库描述: 'database_description',
  表名: 'table_name',
  表描述: 'table_description',
  字段名: 'field_name',
  字段描述: 'field_description',
  字段类型: 'field_type',
  一级分类: 'level_1',
  二级分类: 'level_2',
  三级分类: 'level_3',
  四级分类: 'level_4',
  分级: 'data_level',
}
