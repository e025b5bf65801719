// Runs SQL statements in an in-memory DuckDB and prints, as one JSON array,
// the rows of each (objects; big integers as strings). The statements come
// on standard input as a JSON array of strings.
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

const statements = JSON.parse(readFileSync(0, 'utf8'));
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const results = [];
for (const sql of statements) {
  const reader = await connection.runAndReadAll(sql);
  results.push(reader.getRowObjectsJson());
}
process.stdout.write(JSON.stringify(results));
