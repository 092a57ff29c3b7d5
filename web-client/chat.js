// The room's one chat: everyone in the room (seated players, people waiting to sit, spectators)
// reads and writes the same lines, each under the speaker's name and seat (or "watching") as the
// server gave them. The room's snapshot carries its newest lines, so a reload shows what was said.
// Lines not yet seen (the chat scrolled out of view, scrolled back, or folded away on a phone) are
// counted on the chat's header and on a button that stays on screen and brings the chat into view.
// Names and lines go in as text, never as markup.
import { t } from './i18n.js';

/** The longest line the server takes (protocol `MAX_CHAT_CHARS`). */
export const MAX_CHARS = 200;
/** How many lines the page keeps per room (the room itself keeps 50: protocol `CHAT_HISTORY_LINES`). */
const KEEP = 100;
/** Where this tab remembers, per room, the number of the last line seen (a reload keeps it). */
const READ_KEY = 'skirmish.chat.read.';
/** Where this browser remembers whether the chat is folded away, when the player chose. */
const OPEN_KEY = 'skirmish.chat.open';
/** The phone layout's width (style.css's `max-width: 32rem`): the chat starts folded there. */
const NARROW = '(max-width: 32rem)';

/** Whether the chat's lines are on screen now (most of them), as the last observation said. */
let linesInView = false;
/** Whether any of the chat's card is on screen now (below the sticky status bar). */
let cardInView = false;
let observers = [];

/** Keeps a `chat` message in the room state `rs` (a line already kept is not kept twice). */
export function onChat(rs, msg) {
  rs.chat = rs.chat || [];
  const last = rs.chat.length ? rs.chat[rs.chat.length - 1].n : 0;
  if (msg.n <= last) return;
  rs.chat.push({ n: msg.n, seat: msg.seat ?? null, name: msg.name, text: msg.text });
  if (rs.chat.length > KEEP) rs.chat.splice(0, rs.chat.length - KEEP);
}

/** Takes the chat from a `room` snapshot: the room's newest lines replace the page's. */
export function onSnapshot(rs, snap) {
  rs.chat = (snap.chat || []).map((l) => ({ n: l.n, seat: l.seat ?? null, name: l.name, text: l.text }));
  const last = rs.chat.length ? rs.chat[rs.chat.length - 1].n : 0;
  // The server numbers lines again from 1 after a restart: what this tab saw before is gone.
  if (readUpTo(rs) > last) setRead(rs, last);
}

function readUpTo(rs) {
  if (rs.chatRead == null) rs.chatRead = Number(sessionStorage.getItem(READ_KEY + rs.id)) || 0;
  return rs.chatRead;
}

function setRead(rs, n) {
  rs.chatRead = n;
  try { sessionStorage.setItem(READ_KEY + rs.id, String(n)); } catch { /* private mode: this page only */ }
}

/** How many lines the player has not seen. */
export function unread(rs) {
  const read = readUpTo(rs);
  return (rs.chat || []).filter((l) => l.n > read).length;
}

function isOpen(rs) {
  if (rs.chatOpen == null) {
    const stored = localStorage.getItem(OPEN_KEY);
    rs.chatOpen = stored != null ? stored === 'true' : !matchMedia(NARROW).matches;
  }
  return rs.chatOpen;
}

function setOpen(rs, open) {
  rs.chatOpen = open;
  localStorage.setItem(OPEN_KEY, String(open));
}

/** The speaker's mark: their seat, or that they watch (or had not sat yet when they spoke). */
function tag(rs, l) {
  if (l.seat == null) return t('chat.watching');
  return l.seat === rs.you ? t('chat.seat_you', { n: l.seat + 1 }) : t('chat.seat', { n: l.seat + 1 });
}

/**
 * The chat card: its header with the unread count and the fold button, its lines, a form, and the
 * on-screen button to the chat. `send(text)` returns a promise (the server's answer); `h` builds
 * elements; `render()` draws the room again.
 */
export function chatPanel(rs, h, send, render) {
  const open = isOpen(rs);
  const count = unread(rs);
  const input = h('input', {
    id: 'chat-input', maxlength: MAX_CHARS, autocomplete: 'off', enterkeyhint: 'send', value: rs.chatDraft || '',
    placeholder: t('chat.placeholder'), 'aria-label': t('chat.placeholder'),
    oninput: (e) => { rs.chatDraft = e.target.value; },
  });
  const form = h('form', {
    id: 'chat-form', class: 'row chat-form',
    onsubmit: (e) => {
      e.preventDefault();
      const text = (rs.chatDraft || '').trim();
      if (!text) return;
      send(text).then(() => {
        rs.chatDraft = '';
        const el = document.getElementById('chat-input');
        if (el) el.value = '';
        // One's own line came before the answer: it and what came before are seen.
        markRead(rs);
      }).catch(() => {});
    },
  }, input, h('button', { id: 'chat-send', type: 'submit' }, t('chat.send')));
  const lines = (rs.chat || []).map((l) => h('li', {
    'data-chat-n': l.n, 'data-chat-seat': l.seat ?? '', class: l.seat != null && l.seat === rs.you ? 'mine' : null,
  },
  h('strong', { class: 'chat-name' }, l.name),
  h('span', { class: `chat-tag${l.seat == null ? ' watching' : ''}` }, tag(rs, l)),
  t('chat.colon'),
  h('span', { class: 'chat-text' }, l.text)));
  return h('section', { id: 'chat', class: `card chatcard${open ? '' : ' folded'}`, 'data-chat': 'room', 'data-unread': count, 'aria-labelledby': 'chat-title' },
    h('div', { class: 'chat-head' },
      h('h2', { id: 'chat-title' }, t('chat.title')),
      h('span', { id: 'chat-unread', class: 'badge chat-unread', hidden: count === 0 }, t('chat.unread', { count })),
      h('button', {
        id: 'chat-toggle', type: 'button', 'aria-expanded': String(open), 'aria-controls': 'chat-body',
        onclick: () => { setOpen(rs, !open); render(); },
      }, open ? t('chat.fold') : t('chat.unfold'))),
    h('div', { id: 'chat-body', hidden: !open },
      h('ol', { id: 'chat-lines', class: 'chat-lines', role: 'log', 'aria-labelledby': 'chat-title' },
        lines.length ? lines : h('li', { class: 'muted', id: 'chat-empty' }, t('chat.empty'))),
      form,
      h('p', { class: 'muted small' }, t('chat.note'))),
    // Small, so that it covers little of a board on a phone; its label says it in full.
    h('button', {
      id: 'chat-jump', type: 'button', class: 'chat-jump', hidden: true, 'aria-controls': 'chat',
      'aria-label': t('chat.jump', { count }), title: t('chat.jump', { count }), onclick: () => jump(rs, render),
    }, t('chat.title'), h('span', { id: 'chat-jump-count', class: 'chat-jump-count' }, String(count))));
}

/** Unfolds the chat and brings it into view (the on-screen button). */
function jump(rs, render) {
  if (!isOpen(rs)) { setOpen(rs, true); render(); }
  const card = document.getElementById('chat');
  if (card) card.scrollIntoView({ block: 'end', behavior: 'instant' });
}

/** Whether the chat's lines are scrolled to their end. */
function atEnd(list) {
  return list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
}

/** Marks every line kept as seen and updates the counts in place. */
function markRead(rs) {
  const last = rs.chat && rs.chat.length ? rs.chat[rs.chat.length - 1].n : 0;
  if (last > readUpTo(rs)) setRead(rs, last);
  showCount(rs);
}

/** Shows the unread count on the header and, when the chat is out of view, on the button. */
function showCount(rs) {
  const count = unread(rs);
  const card = document.getElementById('chat');
  if (!card) return;
  card.dataset.unread = String(count);
  const badge = document.getElementById('chat-unread');
  if (badge) { badge.hidden = count === 0; badge.textContent = t('chat.unread', { count }); }
  const button = document.getElementById('chat-jump');
  if (button) {
    // Only while no part of the chat is in view: then the header's count says it, and the button
    // would cover the header's Show or the form's Send.
    button.hidden = count === 0 || cardInView;
    button.setAttribute('aria-label', t('chat.jump', { count }));
    button.title = t('chat.jump', { count });
    document.getElementById('chat-jump-count').textContent = String(count);
  }
}

/**
 * After the room page is drawn: keeps the lines scrolled to the end if they were (`stick`),
 * marks them seen when they are in view, and watches for the chat coming into view or its lines
 * being scrolled to the end.
 */
export function afterRender(rs, stick) {
  const card = document.getElementById('chat');
  const list = document.getElementById('chat-lines');
  observers.forEach((o) => o.disconnect());
  observers = [];
  if (!card || !list) return;
  if (stick) list.scrollTop = list.scrollHeight;
  const seen = () => {
    if (linesInView && isOpen(rs) && atEnd(list) && document.visibilityState === 'visible') markRead(rs);
    else showCount(rs);
  };
  list.addEventListener('scroll', seen, { passive: true });
  const watch = (el, options, set) => {
    const o = new IntersectionObserver((entries) => { set(entries.some((e) => e.isIntersecting)); seen(); }, options);
    o.observe(el);
    observers.push(o);
  };
  // The status bar stays at the top of the screen: what is under it is not in view.
  watch(card, { rootMargin: '-100px 0px 0px 0px' }, (v) => { cardInView = v; });
  if (isOpen(rs)) watch(list, { threshold: 0.6 }, (v) => { linesInView = v; });
  else linesInView = false;
  seen();
}

/** Whether the chat's lines were scrolled to their end before the page is drawn again. */
export function stuckToEnd() {
  const list = document.getElementById('chat-lines');
  return !list || atEnd(list);
}

// A tab brought back to the front sees what the chat shows.
document.addEventListener('visibilitychange', () => {
  const list = document.getElementById('chat-lines');
  if (list && document.visibilityState === 'visible') list.dispatchEvent(new Event('scroll'));
});
