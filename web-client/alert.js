// The turn alert: while it is the player's turn (to move, fire or deploy) the tab's title starts
// with "▶ Your turn" and its icon turns green, so a player in another tab sees it; an optional
// short tone (off unless the player turns it on, kept in this browser) sounds when the turn begins.

import { t } from './i18n.js';

const SOUND_KEY = 'skirmish.sound';
const ICON = '/favicon.svg';
const TURN_ICON = '/favicon-turn.svg';
const MARK = `${t('alert.title_mark')} · `;

let wasTurn = false;
let audio = null;

/** Whether the turn tone is on. */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === 'true';
}

/** Turns the turn tone on or off (a click, so the browser lets the page play sound). */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, String(on));
  if (on && !audio && window.AudioContext) audio = new AudioContext();
}

function beep() {
  if (!soundOn() || !window.AudioContext) return;
  audio = audio || new AudioContext();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = 880;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.25);
}

/** Shows (or clears) the alert: `mine` is whether the page's player must act now. */
export function turnAlert(mine) {
  const base = document.title.startsWith(MARK) ? document.title.slice(MARK.length) : document.title;
  document.title = mine ? MARK + base : base;
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.setAttribute('href', mine ? TURN_ICON : ICON);
  document.documentElement.dataset.turnAlert = mine ? 'true' : 'false';
  if (mine && !wasTurn) beep();
  wasTurn = mine;
}
