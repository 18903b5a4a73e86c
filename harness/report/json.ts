import type { Report } from './model.ts';

/** `report.json`: the report as indented JSON, keys in the model's order, ending with a newline. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
