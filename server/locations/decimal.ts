/**
 * A number as decimals, never in scientific notation: JavaScript writes -0.0000001 as "-1e-7", which a
 * person does not read as a coordinate and a spreadsheet may not either (a walk's export of a longitude
 * of -0.0000001 did not import back). The shortest digits that read back to the same number, as String.
 */
export function decimalText(value: number): string {
  const text = String(value);
  const scientific = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (scientific === null) return text;
  const [, sign, first, rest = '', exponentText] = scientific;
  const digits = `${first}${rest}`;
  const exponent = Number(exponentText);
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.padEnd(exponent + 1, '0');
  return `${sign}${whole.slice(0, exponent + 1)}${whole.length > exponent + 1 ? `.${whole.slice(exponent + 1)}` : ''}`;
}
