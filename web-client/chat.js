// The room's chat: the players' chat for a seated player, the spectators' chat for a spectator
// (the server keeps them apart). Names and lines go in as text, never as markup.
import { t } from './i18n.js';

/** The longest line the server takes (protocol `MAX_CHAT_CHARS`). */
export const MAX_CHARS = 200;
/** How many lines the page keeps per room. */
const KEEP = 100;

/** Keeps a `chat` message in the room state `rs`. */
export function onChat(rs, msg) {
  rs.chat = rs.chat || [];
  rs.chat.push({ channel: msg.channel, seat: msg.seat ?? null, name: msg.name, text: msg.text });
  if (rs.chat.length > KEEP) rs.chat.splice(0, rs.chat.length - KEEP);
}

/**
 * The chat card: its lines and a form. `send(text)` returns a promise (the server's answer);
 * `h` builds elements.
 */
export function chatPanel(rs, h, send) {
  const spectator = rs.you == null;
  const title = spectator ? t('chat.spectators_title') : t('chat.players_title');
  const input = h('input', {
    id: 'chat-input', maxlength: MAX_CHARS, autocomplete: 'off', value: rs.chatDraft || '',
    placeholder: spectator ? t('chat.spectators_placeholder') : t('chat.players_placeholder'),
    'aria-label': title, oninput: (e) => { rs.chatDraft = e.target.value; },
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
      }).catch(() => {});
    },
  }, input, h('button', { id: 'chat-send', type: 'submit' }, t('chat.send')));
  return h('div', { class: 'card chatcard', 'data-chat': spectator ? 'spectators' : 'players' },
    h('h2', { id: 'chat-title' }, title),
    h('ol', { id: 'chat-lines', class: 'chat-lines', role: 'log', 'aria-labelledby': 'chat-title' },
      (rs.chat || []).map((l) => h('li', { 'data-chat-line': l.channel },
        h('strong', { class: 'chat-name' }, l.name), t('chat.colon'), h('span', { class: 'chat-text' }, l.text)))),
    form,
    h('p', { class: 'muted small' }, spectator ? t('chat.spectators_note') : t('chat.players_note')));
}
