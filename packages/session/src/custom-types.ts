/**
 * `customType` names the session package reserves for its own `custom` entries. Entry kinds are
 * fixed by @tiller/core, so labels, the session name and whatever an import carries over without
 * a Tiller counterpart live in `custom` entries under these names.
 */
export const CustomTypes = {
  /** data: `{ targetId, label? }`; a missing label clears the entry's label. */
  label: 'tiller.label',
  /** data: `{ name? }`; a missing or blank name clears the session name. */
  sessionName: 'tiller.session_name',
  /** A pi message whose role Tiller has no counterpart for; data: the pi message as it was. */
  piMessage: 'pi.message',
  /** A pi entry type Tiller has no counterpart for; data: the pi entry without its id, parentId and timestamp. */
  piEntry: 'pi.entry',
  piModelChange: 'pi.model_change',
  piThinkingLevelChange: 'pi.thinking_level_change',
  piCustomMessage: 'pi.custom_message',
  /** A pi `custom` entry whose own customType would collide with a reserved prefix. */
  piCustom: 'pi.custom',
} as const;

export function isReservedCustomType(customType: string): boolean {
  return customType.startsWith('tiller.') || customType.startsWith('pi.');
}

export interface LabelData {
  targetId: string;
  label?: string | undefined;
}

export interface SessionNameData {
  name?: string | undefined;
}
