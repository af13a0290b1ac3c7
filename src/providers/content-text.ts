/** A text or a list of content blocks, as tool results and messages carry them. */
export type ContentLike = string | null | undefined | readonly { readonly type: string; readonly text?: string | undefined }[];

/** The text of a string or of the text blocks of a block list. */
export function contentText(content: ContentLike): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}

