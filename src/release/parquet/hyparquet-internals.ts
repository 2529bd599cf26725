/**
 * @module release/parquet: the only file that imports hyparquet's and hyparquet-writer's internal
 * modules (their `src/*.js` paths, which neither package promises to keep). Both packages are pinned
 * EXACTLY in package.json (hyparquet 1.31.5, hyparquet-writer 0.17.0) for that reason: a version bump is a
 * deliberate change, checked by this folder's tests. What we take:
 * - hyparquet: the Thrift page-header reader and the RLE/bit-packed hybrid decoder (our trajectory reader,
 *   50–60× faster than `parquetReadObjects` on trajectory rows, decodes column chunks itself);
 * - hyparquet-writer: the page-header and footer Thrift encoders and the RLE/bit-packed hybrid encoder
 *   (the fixed-shape SFT writer lays pages out itself; see decision 0042 for what that pays).
 */
export { parquetHeader } from 'hyparquet/src/column.js'
export { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js'
export { writePageHeader } from 'hyparquet-writer/src/datapage.js'
export { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js'
export { writeMetadata } from 'hyparquet-writer/src/metadata.js'
