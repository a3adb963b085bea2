// Holiday names with a fixed or computable date, in English and fr, de, es, it, nl, pt. What
// each holiday covers (the festive days around Christmas, Palm Sunday to Low Sunday around
// Easter…) is decided in calendar-periods.ts; this file only says which words name which holiday.
// Sources: the Gregorian liturgical calendar; ordinary dictionaries of each language.
import type { Holiday } from '../calendar-periods';
import type { Language } from './month-words';

export const HOLIDAY_WORDS_VERSION = 2;

export const HOLIDAY_WORDS: Record<Language, Partial<Record<Holiday, readonly string[]>>> = {
  en: {
    'christmas-eve': ['christmas eve', 'xmas eve'],
    'christmas-day': ['christmas day', 'xmas day'],
    'boxing-day': ['boxing day', "st stephen's day", 'st. stephen’s day', "st. stephen's day", 'st stephen’s day'],
    christmas: ['christmas', 'xmas', 'x-mas'],
    'new-years-eve': ["new year's eve", 'new years eve', 'new year’s eve'],
    'new-years-day': ["new year's day", 'new years day', 'new year’s day'],
    'new-year': ["new year's", 'new years', 'new year', 'new year’s'],
    'easter-sunday': ['easter sunday'],
    easter: ['easter'],
  },
  fr: {
    'christmas-eve': ['veille de noël', 'réveillon de noël'],
    christmas: ['noël', 'noel'],
    'new-years-eve': ['saint-sylvestre', 'saint sylvestre', 'la saint-sylvestre'],
    'new-years-day': ["jour de l'an", 'jour de l’an', 'premier de l’an', "premier de l'an"],
    'new-year': ['nouvel an'],
    'easter-sunday': ['dimanche de pâques'],
    easter: ['pâques', 'paques'],
  },
  de: {
    'christmas-eve': ['heiligabend', 'heiliger abend', 'heiligen abend'],
    'christmas-day': ['erster weihnachtstag', '1. weihnachtstag'],
    'boxing-day': ['zweiter weihnachtstag', '2. weihnachtstag', 'stephanstag', 'stefanitag'],
    christmas: ['weihnachten', 'weihnacht'],
    'new-years-eve': ['silvester', 'sylvester'],
    'new-years-day': ['neujahrstag'],
    'new-year': ['neujahr'],
    'easter-sunday': ['ostersonntag'],
    easter: ['ostern'],
  },
  es: {
    'christmas-eve': ['nochebuena'],
    'christmas-day': ['día de navidad', 'dia de navidad'],
    'boxing-day': ['san esteban', 'día de san esteban', 'dia de san esteban'],
    christmas: ['navidad', 'navidades'],
    'new-years-eve': ['nochevieja'],
    'new-years-day': ['día de año nuevo', 'dia de año nuevo'],
    'new-year': ['año nuevo', 'ano nuevo'],
    'easter-sunday': ['domingo de pascua', 'domingo de resurrección'],
    easter: ['pascua', 'semana santa'],
  },
  it: {
    'christmas-eve': ['vigilia di natale'],
    'boxing-day': ['santo stefano'],
    christmas: ['natale'],
    'new-years-eve': ['san silvestro'],
    'new-year': ['capodanno'],
    easter: ['pasqua'],
  },
  nl: {
    'christmas-eve': ['kerstavond'],
    'christmas-day': ['eerste kerstdag'],
    'boxing-day': ['tweede kerstdag'],
    christmas: ['kerstmis', 'kerst'],
    'new-years-eve': ['oudejaarsavond', 'oudjaar'],
    'new-years-day': ['nieuwjaarsdag'],
    'new-year': ['nieuwjaar'],
    'easter-sunday': ['eerste paasdag', 'paaszondag'],
    easter: ['pasen'],
  },
  pt: {
    'christmas-eve': ['véspera de natal', 'vespera de natal', 'consoada'],
    'christmas-day': ['dia de natal'],
    christmas: ['natal'],
    'new-years-eve': ['réveillon', 'reveillon', 'véspera de ano novo'],
    'new-years-day': ['dia de ano novo'],
    'new-year': ['ano novo', 'ano-novo'],
    'easter-sunday': ['domingo de páscoa'],
    easter: ['páscoa', 'pascoa'],
  },
};
