import {
  ActionIcon,
  Badge,
  Button,
  Fieldset,
  Group,
  Input,
  Menu,
  Paper,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { type KeyboardEvent, useLayoutEffect, useRef, useState } from 'react';
import {
  blocksOf,
  type Decl,
  defaultsOf,
  type Item,
  inputProps,
  nestedOf,
  newKey,
  titleOf,
  useProblems,
} from './decl';
import { type FieldProps, NestedFields } from './StructuredField';

/** Past this many items a list opens collapsed: 200 open forms would be a long page and a slow one. */
const OPEN_UP_TO = 5;

const isItem = (v: unknown): v is Item =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Item)._key === 'string';

/**
 * `list` and `blocks`: items with add, remove, duplicate, collapse, and reorder by drag or by keyboard
 * (Alt+↑/↓ anywhere in an item, or its Move buttons). An item keeps its `_key` through every edit and
 * move (contract §17); a new or duplicated one gets a fresh key. A block's kind is its `_type`, added
 * from the "Add section" menu of the declared kinds.
 */
export function ItemsControl({ decl, value, path, onChange, site, depth }: FieldProps) {
  const items = Array.isArray(value) ? value.filter(isItem) : [];
  const isBlocks = decl.type === 'blocks';
  const kinds = blocksOf(decl);
  const props = inputProps(decl);
  const problems = useProblems();
  const [closed, setClosed] = useState<Set<string>>(
    () => new Set(items.length > OPEN_UP_TO ? items.map((i) => i._key) : []),
  );
  const [dragged, setDragged] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const refocus = useRef<HTMLElement | null>(null);

  // A moved item's DOM node is moved too, which takes the focus away from it: give it back.
  useLayoutEffect(() => {
    const el = refocus.current;
    refocus.current = null;
    if (el && document.activeElement !== el && el.isConnected) el.focus();
  });

  const fieldsOf = (item: Item): Decl[] =>
    isBlocks ? ((kinds.find((k) => k.componentId === item._type)?.fields ?? []) as Decl[]) : nestedOf(decl);
  const kindLabel = (item: Item) => {
    const kind = kinds.find((k) => k.componentId === item._type);
    return kind?.label ?? item._type ?? 'Block';
  };
  const nameOf = (item: Item, i: number) => {
    const title = titleOf(fieldsOf(item), item);
    const base = isBlocks ? kindLabel(item) : `Item ${i + 1}`;
    return title ? `${base}: ${title}` : `${base} ${isBlocks ? i + 1 : ''}`.trim();
  };

  const set = (next: Item[]) => onChange(next);
  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const next = [...items];
    const [it] = next.splice(from, 1);
    next.splice(to, 0, it!);
    set(next);
    setSaid(`${nameOf(it!, to)} moved to position ${to + 1} of ${items.length}`);
  };
  const add = (kind?: string) => {
    const fields = kind
      ? ((kinds.find((k) => k.componentId === kind)?.fields ?? []) as Decl[])
      : nestedOf(decl);
    const item: Item = { _key: newKey(), ...(kind ? { _type: kind } : {}), ...defaultsOf(fields) };
    set([...items, item]);
  };
  const toggle = (key: string) =>
    setClosed((s) => {
      const next = new Set(s);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const onKeyDown = (i: number) => (e: KeyboardEvent<HTMLElement>) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    e.stopPropagation();
    refocus.current = document.activeElement as HTMLElement | null;
    move(i, e.key === 'ArrowUp' ? i - 1 : i + 1);
  };

  const own = problems.at(path);
  return (
    <Fieldset legend={`${props.label}${props.withAsterisk ? ' *' : ''}`} className="folio-nested">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {props.description} · {items.length} {items.length === 1 ? 'item' : 'items'}
          {depth === 0 && ' · Alt+↑/↓ moves the item you are in'}
        </Text>
        {own.length > 0 && <Input.Error>{own.join('; ')}</Input.Error>}
        {items.map((item, i) => {
          const name = nameOf(item, i);
          const at = `${path}[${i}]`;
          const count = problems.below(at) + problems.at(at).length;
          const open = !closed.has(item._key);
          const bodyId = `${path}-${item._key}`;
          return (
            <Paper
              key={item._key}
              withBorder
              p="xs"
              role="group"
              aria-label={name}
              onKeyDown={onKeyDown(i)}
              onDragOver={(e) => {
                if (dragged) e.preventDefault();
              }}
              onDrop={(e) => {
                e.preventDefault();
                const from = items.findIndex((x) => x._key === dragged);
                setDragged(null);
                if (from >= 0) move(from, i);
              }}
              className={dragged === item._key ? 'folio-dragging' : undefined}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap="xs" wrap="nowrap">
                  <span
                    className="folio-drag-handle"
                    draggable
                    role="img"
                    aria-label={`Drag ${name}`}
                    title="Drag to reorder"
                    onDragStart={(e) => {
                      e.dataTransfer.effectAllowed = 'move';
                      e.dataTransfer.setData('text/plain', item._key);
                      setDragged(item._key);
                    }}
                    onDragEnd={() => setDragged(null)}
                  >
                    ⠿
                  </span>
                  <UnstyledButton
                    aria-expanded={open}
                    aria-controls={bodyId}
                    onClick={() => toggle(item._key)}
                    className="folio-item-title"
                  >
                    <span aria-hidden>{open ? '▾' : '▸'}</span> {name}
                  </UnstyledButton>
                  {count > 0 && (
                    <Badge color="red" variant="light" c="red.9">
                      {count} {count === 1 ? 'problem' : 'problems'}
                    </Badge>
                  )}
                </Group>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    color="dark"
                    aria-label={`Move ${name} up`}
                    disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="dark"
                    aria-label={`Move ${name} down`}
                    disabled={i === items.length - 1}
                    onClick={() => move(i, i + 1)}
                  >
                    ↓
                  </ActionIcon>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="dark"
                    aria-label={`Duplicate ${name}`}
                    onClick={() =>
                      set([
                        ...items.slice(0, i + 1),
                        { ...structuredClone(item), _key: newKey() },
                        ...items.slice(i + 1),
                      ])
                    }
                  >
                    Duplicate
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${name}`}
                    onClick={() => set(items.filter((x) => x._key !== item._key))}
                  >
                    Remove
                  </Button>
                </Group>
              </Group>
              {open && (
                <Stack gap="xs" mt="xs" id={bodyId}>
                  {problems.at(at).length > 0 && <Input.Error>{problems.at(at).join('; ')}</Input.Error>}
                  <NestedFields
                    fields={fieldsOf(item)}
                    value={item}
                    path={at}
                    site={site}
                    depth={depth + 1}
                    onChange={(next) => set(items.map((x) => (x._key === item._key ? (next as Item) : x)))}
                  />
                </Stack>
              )}
            </Paper>
          );
        })}
        <div role="status" aria-live="polite" className="folio-visually-hidden">
          {said}
        </div>
        {isBlocks ? (
          <Menu position="bottom-start">
            <Menu.Target>
              <Button variant="default" size="sm" w="fit-content">
                Add section to {props.label}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {kinds.map((k) => (
                <Menu.Item key={k.componentId} onClick={() => add(k.componentId)}>
                  {k.label ?? k.componentId}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : (
          <Button variant="default" size="sm" w="fit-content" onClick={() => add()}>
            Add to {props.label}
          </Button>
        )}
      </Stack>
    </Fieldset>
  );
}
