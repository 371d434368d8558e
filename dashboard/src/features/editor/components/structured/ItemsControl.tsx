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
import { type KeyboardEvent, memo, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import type { Site } from '../../api/entries.api';
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
  useReveal,
} from './decl';
import { type FieldProps, NestedFields } from './StructuredField';

/** Past this many items a list opens collapsed: 200 open forms would be a long page and a slow one. */
const OPEN_UP_TO = 5;
/**
 * Past this many items a list's rows are drawn only near the screen (`folio-item-lazy` in app.css:
 * content-visibility). Not for shorter lists: there it saves nothing, and a full-page screenshot (which
 * renders beyond the screen without making it "near") would show their far rows empty.
 */
const LAZY_FROM = 20;

const isItem = (v: unknown): v is Item =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Item)._key === 'string';

/** What an item's row asks of its list; one object for the list's life, read at the time of the call. */
interface Actions {
  move(key: string, by: number): void;
  toggle(key: string): void;
  duplicate(key: string): void;
  remove(key: string): void;
  update(key: string, next: Record<string, unknown>): void;
  dragStart(key: string | null): void;
  drop(onto: string): void;
}

/**
 * `list` and `blocks`: items with add, remove, duplicate, collapse, and reorder by drag or by keyboard
 * (Alt+↑/↓ anywhere in an item, or its Move buttons). An item keeps its `_key` through every edit and
 * move (contract §17); a new or duplicated one gets a fresh key. A block's kind is its `_type`, added
 * from the "Add section" menu of the declared kinds. Each item's row is memoised: a keystroke in one
 * item of 200 re-renders that row, not the 199 others (bench/browser-speed.mjs --long-list).
 */
export function ItemsControl({ decl, value, path, onChange, site, depth }: FieldProps) {
  const items = Array.isArray(value) ? value.filter(isItem) : [];
  const isBlocks = decl.type === 'blocks';
  const kinds = blocksOf(decl);
  const props = inputProps(decl);
  const problems = useProblems();
  const reveal = useReveal();
  const [closed, setClosed] = useState<Set<string>>(
    () =>
      new Set(items.length > OPEN_UP_TO ? items.map((i) => i._key).filter((k) => !reveal.keys.has(k)) : []),
  );
  // The preview selected an item inside this list: open it in this very render (not in an effect), so
  // the form's focus, right after this commit, finds its fields.
  const [revealed, setRevealed] = useState(reveal.request);
  if (revealed !== reveal.request) {
    setRevealed(reveal.request);
    if (items.some((i) => reveal.keys.has(i._key) && closed.has(i._key))) {
      setClosed((s) => new Set([...s].filter((k) => !reveal.keys.has(k))));
    }
  }
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
  const nameOf = (item: Item, i: number) => {
    const title = titleOf(fieldsOf(item), item);
    const kind = kinds.find((k) => k.componentId === item._type);
    const base = isBlocks ? (kind?.label ?? item._type ?? 'Block') : `Item ${i + 1}`;
    return title ? `${base}: ${title}` : `${base} ${isBlocks ? i + 1 : ''}`.trim();
  };

  const add = (kind?: string) => {
    const fields = kind
      ? ((kinds.find((k) => k.componentId === kind)?.fields ?? []) as Decl[])
      : nestedOf(decl);
    const item: Item = { _key: newKey(), ...(kind ? { _type: kind } : {}), ...defaultsOf(fields) };
    onChange([...items, item]);
  };

  // The rows call these through a ref, so their props stay the same while another row is edited.
  const actions = useRef<Actions>(null as unknown as Actions);
  const indexOf = (key: string) => items.findIndex((x) => x._key === key);
  const moveTo = (from: number, to: number) => {
    if (from < 0 || to < 0 || to >= items.length || from === to) return;
    const next = [...items];
    const [it] = next.splice(from, 1);
    next.splice(to, 0, it!);
    onChange(next);
    setSaid(`${nameOf(it!, to)} moved to position ${to + 1} of ${items.length}`);
  };
  actions.current = {
    move(key, by) {
      refocus.current = document.activeElement as HTMLElement | null;
      const from = indexOf(key);
      moveTo(from, from + by);
    },
    toggle: (key) =>
      setClosed((s) => {
        const next = new Set(s);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    duplicate(key) {
      const i = indexOf(key);
      onChange([
        ...items.slice(0, i + 1),
        { ...structuredClone(items[i]!), _key: newKey() },
        ...items.slice(i + 1),
      ]);
    },
    remove: (key) => onChange(items.filter((x) => x._key !== key)),
    update: (key, next) => onChange(items.map((x) => (x._key === key ? (next as Item) : x))),
    dragStart: setDragged,
    drop(onto) {
      const from = dragged ? indexOf(dragged) : -1;
      setDragged(null);
      moveTo(from, indexOf(onto));
    },
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
          const at = `${path}[${i}]`;
          return (
            <ItemRow
              key={item._key}
              item={item}
              name={nameOf(item, i)}
              first={i === 0}
              last={i === items.length - 1}
              problemCount={problems.below(at) + problems.at(at).length}
              open={!closed.has(item._key)}
              dragging={dragged === item._key}
              lazy={items.length > LAZY_FROM}
              fields={fieldsOf(item)}
              path={at}
              site={site}
              depth={depth}
              actions={actions}
            />
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

interface RowProps {
  item: Item;
  name: string;
  first: boolean;
  last: boolean;
  problemCount: number;
  open: boolean;
  dragging: boolean;
  /** Drawn only near the screen (a long list). */
  lazy: boolean;
  fields: Decl[];
  /** `fields.features[2]`: the item's path, for the API's problems. */
  path: string;
  site: Site;
  depth: number;
  actions: RefObject<Actions>;
}

const ItemRow = memo(function ItemRow({
  item,
  name,
  first,
  last,
  problemCount,
  open,
  dragging,
  lazy,
  fields,
  path,
  site,
  depth,
  actions,
}: RowProps) {
  const problems = useProblems().at(path);
  const key = item._key;
  const bodyId = `${path}-${key}`;
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    e.stopPropagation();
    actions.current.move(key, e.key === 'ArrowUp' ? -1 : 1);
  };
  return (
    <Paper
      withBorder
      p="xs"
      role="group"
      aria-label={name}
      data-folio-key={key}
      onKeyDown={onKeyDown}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        actions.current.drop(key);
      }}
      className={
        [lazy && 'folio-item-lazy', dragging && 'folio-dragging'].filter(Boolean).join(' ') || undefined
      }
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
              e.dataTransfer.setData('text/plain', key);
              actions.current.dragStart(key);
            }}
            onDragEnd={() => actions.current.dragStart(null)}
          >
            ⠿
          </span>
          <UnstyledButton
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => actions.current.toggle(key)}
            className="folio-item-title"
          >
            <span aria-hidden>{open ? '▾' : '▸'}</span> {name}
          </UnstyledButton>
          {problemCount > 0 && (
            <Badge color="red" variant="light" c="red.9">
              {problemCount} {problemCount === 1 ? 'problem' : 'problems'}
            </Badge>
          )}
        </Group>
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            color="dark"
            aria-label={`Move ${name} up`}
            disabled={first}
            onClick={() => actions.current.move(key, -1)}
          >
            ↑
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="dark"
            aria-label={`Move ${name} down`}
            disabled={last}
            onClick={() => actions.current.move(key, 1)}
          >
            ↓
          </ActionIcon>
          <Button
            size="compact-sm"
            variant="subtle"
            color="dark"
            aria-label={`Duplicate ${name}`}
            onClick={() => actions.current.duplicate(key)}
          >
            Duplicate
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            aria-label={`Remove ${name}`}
            onClick={() => actions.current.remove(key)}
          >
            Remove
          </Button>
        </Group>
      </Group>
      {open && (
        <Stack gap="xs" mt="xs" id={bodyId}>
          {problems.length > 0 && <Input.Error>{problems.join('; ')}</Input.Error>}
          <NestedFields
            fields={fields}
            value={item}
            path={path}
            site={site}
            depth={depth + 1}
            onChange={(next) => actions.current.update(key, next)}
          />
        </Stack>
      )}
    </Paper>
  );
});
