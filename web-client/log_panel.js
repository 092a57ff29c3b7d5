// The room's event log, which every game's room shows (plane battle, gomoku, junqi): plain lines,
// a player's own and public events marked, and the commit-and-reveal checks (audit.js: each opened
// commitment, verified or not), which open to show their details.
import { auditText } from './audit.js';
import { h } from './dom.js';
import { t } from './i18n.js';

export function logPanel(rs) {
  return h('div', { class: 'card logcard' },
    h('h2', { id: 'log-title' }, t('log.title')),
    h('ol', { id: 'log', class: 'log', role: 'log', 'aria-labelledby': 'log-title' },
      rs.log.map((t) => (typeof t === 'string' ? h('li', {}, t)
        : t.audit != null ? h('li', { 'data-audit': t.audit, 'data-verified': t.verified, 'data-committed': t.committed },
          h('details', {}, h('summary', {}, auditText(t)), t.details.map((d) => h('div', { class: 'small' }, d))))
          : h('li', { 'data-public': t.public ? true : null, 'data-mine': t.mine ? true : null }, t.text)))));
}
