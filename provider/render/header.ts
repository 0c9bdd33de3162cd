/** First line of every rendered file, so an operator knows not to edit it by hand. */
export function header(comment = "#"): string {
  return `${comment} Managed by lvs-pulumi; edits are overwritten.\n`;
}
