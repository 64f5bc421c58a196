// The game's sounds, synthesized with the Web Audio API (no sound files):
// move, capture, check, low time and game end. Muting is remembered in
// localStorage. Browsers only let audio start after a user gesture, so
// nothing is played (or created) before the first click or key.

import { settings, changeSettings } from './settings.js';

let context = null;
let unlocked = false;

for (const type of ['pointerdown', 'keydown']) {
  window.addEventListener(type, () => { unlocked = true; }, { capture: true, once: true });
}

// The setting "sounds" (settings.js), which the game page's button turns too.
export const isMuted = () => !settings().sound;

export function setMuted(muted) {
  changeSettings({ sound: !muted }).catch(() => {});
}

// Each sound: tones as [frequency Hz, start s, length s, wave], and an
// optional noise burst [start s, length s] (the knock of a capture).
const SOUNDS = {
  move: { tones: [[660, 0, 0.07, 'triangle']] },
  capture: { tones: [[330, 0, 0.09, 'triangle']], noise: [0, 0.08] },
  check: { tones: [[880, 0, 0.09, 'square'], [1175, 0.1, 0.12, 'square']] },
  lowTime: { tones: [[1320, 0, 0.06, 'sine'], [1320, 0.12, 0.06, 'sine']] },
  gameEnd: { tones: [[523, 0, 0.18, 'sine'], [659, 0.12, 0.18, 'sine'], [784, 0.24, 0.35, 'sine']] },
};

function envelope(ctx, start, length, peak) {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(peak, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  gain.connect(ctx.destination);
  return gain;
}

/** Plays one of `move`, `capture`, `check`, `lowTime`, `gameEnd` unless muted; returns whether it did. */
export function playSound(name) {
  const sound = SOUNDS[name];
  if (!sound || isMuted() || !unlocked || !window.AudioContext) return false;
  context ??= new AudioContext();
  if (context.state === 'suspended') context.resume();
  const now = context.currentTime;
  for (const [frequency, at, length, wave] of sound.tones) {
    const osc = context.createOscillator();
    osc.type = wave;
    osc.frequency.value = frequency;
    osc.connect(envelope(context, now + at, length, 0.15));
    osc.start(now + at);
    osc.stop(now + at + length + 0.02);
  }
  if (sound.noise) {
    const [at, length] = sound.noise;
    const buffer = context.createBuffer(1, Math.ceil(context.sampleRate * length), context.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(envelope(context, now + at, length, 0.3));
    source.start(now + at);
  }
  document.body.dataset.lastSound = name; // what was heard last, for the page's tests
  return true;
}
