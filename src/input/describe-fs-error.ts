/** A file-system error in words fit for a person (`no such file or folder`, `permission denied`, ...). */
export function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a folder, expected a file';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
