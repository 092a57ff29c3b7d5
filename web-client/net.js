// The WebSocket connection: hello (with the resume token), request numbers, reconnection.

const TOKEN_KEY = 'skirmish.resume';
/** Every resume token this browser was given, newest last (at most MY_TOKENS): "My games" lists the
 * games of each, since a server that forgot the browser (it left with no seat) gives it a new one. */
const TOKENS_KEY = 'skirmish.resumes';
/** How many tokens the browser keeps for "My games": the server reads at most 20 a request. */
const MY_TOKENS = 20;

function rememberToken(token) {
  let tokens;
  try { tokens = JSON.parse(localStorage.getItem(TOKENS_KEY) || '[]'); } catch { tokens = []; }
  if (!Array.isArray(tokens)) tokens = [];
  tokens = tokens.filter((x) => x !== token).concat([token]).slice(-MY_TOKENS);
  localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
}

export class Connection {
  /**
   * @param {string} name display name for hello
   * @param {(msg: object) => void} onMessage every server message
   * @param {(state: string) => void} onState 'connecting' | 'open' | 'closed'
   */
  constructor(name, onMessage, onState) {
    this.name = name;
    this.onMessage = onMessage;
    this.onState = onState;
    this.nextReq = 1;
    this.pending = new Map();
    this.ws = null;
    this.welcomed = false;
    this.retry = 0;
    this.stopped = false;
    this.queue = [];
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws`;
  }

  open() {
    this.stopped = false;
    this.welcomed = false;
    this.onState('connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      // turn_view: every your_turn carries the seat's whole view (renju's forbidden points, a
      // junqi position), so that the page never has to rebuild one from events alone.
      const hello = { type: 'hello', protocol: 1, name: this.name, turn_view: true };
      const token = localStorage.getItem(TOKEN_KEY);
      if (token) hello.resume = token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === 'welcome') {
        localStorage.setItem(TOKEN_KEY, msg.resume);
        rememberToken(msg.resume);
        this.welcomed = true;
        this.retry = 0;
        this.onState('open');
        const queued = this.queue;
        this.queue = [];
        queued.forEach((text) => ws.send(text));
      }
      if (msg.type === 'error' && msg.code === 'bad_resume') {
        // The server forgot us (restarted): it registers us anew and sends a fresh welcome.
        localStorage.removeItem(TOKEN_KEY);
      }
      if (msg.req != null && this.pending.has(msg.req)) {
        const { resolve, reject } = this.pending.get(msg.req);
        // `room_created` comes before `seated`; keep waiting for the final answer of create_room.
        if (msg.type !== 'room_created' || !this.pending.get(msg.req).waitSeated) {
          this.pending.delete(msg.req);
          if (msg.type === 'error') reject(msg); else resolve(msg);
        }
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.welcomed = false;
      this.onState('closed');
      for (const { reject } of this.pending.values()) reject({ code: 'disconnected', message: 'connection lost' }); // error.disconnected in the catalogs
      this.pending.clear();
      if (this.stopped) return;
      const delay = Math.min(5000, 500 * 2 ** this.retry++);
      setTimeout(() => { if (!this.stopped && this.ws === ws) this.open(); }, delay);
    };
  }

  /** Closes and reopens (after a change of name). */
  restart(name) {
    this.name = name;
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.open();
  }

  /** Sends a message; resolves with its answer (or rejects with the `error`). */
  request(msg, { waitSeated = false } = {}) {
    const req = this.nextReq++;
    const text = JSON.stringify({ ...msg, req });
    const promise = new Promise((resolve, reject) => this.pending.set(req, { resolve, reject, waitSeated }));
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed) this.ws.send(text);
    else this.queue.push(text);
    return promise;
  }

  /** Sends a message whose answer does not matter (act). */
  send(msg) {
    this.request(msg).catch(() => {});
  }
}
