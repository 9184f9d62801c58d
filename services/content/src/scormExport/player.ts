/**
 * The package's own script and style, shipped as files of the zip. Plain ES5 without modules: it runs
 * in whatever browser the other LMS's learners have, with nothing loaded from the portal. Its grading
 * follows the quiz engine's rules for the types the package shows (gradeQuestion: single and multiple
 * choice, true/false, short answer, number; all-or-nothing or proportional); the export's test plays a
 * package and compares its score with the engine's for the same answers.
 *
 * What it reports (SCORM 1.2 RTE): LMSInitialize at load; cmi.core.lesson_location (the lesson's id)
 * on every move; cmi.suspend_data (lessons visited, each answered quiz's result) and LMSCommit after
 * each step; cmi.core.score.raw/min/max in percent of all the quizzes' points; cmi.core.lesson_status
 * 'passed' or 'failed' once every quiz is answered (passed when each quiz reaches its passing score, as
 * the portal counts a quiz passed), 'completed' for a course without quizzes once every lesson was
 * opened, 'incomplete' before; LMSFinish when the page is left.
 */
export const PLAYER_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('course-data').textContent);
  var text = JSON.parse(document.getElementById('course-text').textContent);
  var lessons = document.querySelectorAll('section.lesson');
  var statusLine = document.querySelector('header .status');
  var state = { v: [], q: {} };
  var current = 0;
  var finished = false;

  function format(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }

  /* SCORM 1.2 RTE: the API is on this window, one of its parents, or its opener's (a frame of another origin is skipped). */
  function apiAbove(win) {
    for (var depth = 0; win && depth < 10; depth++) {
      try {
        if (win.API) return win.API;
      } catch (e) { /* another origin */ }
      if (!win.parent || win.parent === win) return null;
      win = win.parent;
    }
    return null;
  }
  var api = apiAbove(window) || (window.opener ? apiAbove(window.opener) : null);

  function get(name) {
    return api ? String(api.LMSGetValue(name) || '') : '';
  }
  function set(name, value) {
    if (api) api.LMSSetValue(name, String(value));
  }

  function quizMax(quiz) {
    var max = 0;
    for (var i = 0; i < quiz.questions.length; i++) max += quiz.questions[i].points;
    return max;
  }
  var gradedQuizzes = data.quizzes.filter(function (q) { return quizMax(q) > 0; });
  function quizById(id) {
    for (var i = 0; i < data.quizzes.length; i++) if (data.quizzes[i].id === id) return data.quizzes[i];
    return null;
  }

  function report() {
    if (gradedQuizzes.length) {
      var earned = 0, max = 0, answered = 0, passed = true;
      gradedQuizzes.forEach(function (quiz) {
        var result = state.q[quiz.id];
        max += quizMax(quiz);
        if (!result) return;
        answered++;
        earned += result[0];
        if (!result[3]) passed = false;
      });
      set('cmi.core.score.min', 0);
      set('cmi.core.score.max', 100);
      set('cmi.core.score.raw', Math.round((earned / max) * 100));
      set('cmi.core.lesson_status', answered < gradedQuizzes.length ? 'incomplete' : passed ? 'passed' : 'failed');
    } else {
      set('cmi.core.lesson_status', state.v.length >= lessons.length ? 'completed' : 'incomplete');
    }
  }

  function save() {
    if (!api) return;
    set('cmi.suspend_data', JSON.stringify(state));
    report();
    api.LMSCommit('');
  }

  function show(index) {
    if (index < 0 || index >= lessons.length) return;
    current = index;
    for (var i = 0; i < lessons.length; i++) lessons[i].hidden = i !== index;
    if (state.v.indexOf(index) < 0) state.v.push(index);
    set('cmi.core.lesson_location', data.lessons[index].id);
    var links = document.querySelectorAll('[data-goto]');
    for (var j = 0; j < links.length; j++) {
      if (Number(links[j].getAttribute('data-goto')) === index) links[j].setAttribute('aria-current', 'page');
      else links[j].removeAttribute('aria-current');
    }
    save();
  }

  /* The quiz engine's rules (gradeQuestion) for the types the package shows. */
  function norm(s) {
    return String(s).trim().toLocaleLowerCase('ru-RU');
  }
  function parseNumber(value) {
    var t = String(value).replace(/[\s\u00a0]/g, '').replace(',', '.');
    return t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? NaN : Number(t);
  }
  function isBlank(answer) {
    return answer === null || (typeof answer === 'string' && answer.trim() === '') || (answer instanceof Array && answer.length === 0);
  }
  function share(q, answer) {
    switch (q.type) {
      case 'single_choice':
        return q.correctAnswers.length > 0 && answer === q.correctAnswers[0] ? 1 : 0;
      case 'multiple_choice': {
        if (!q.correctAnswers.length) return 0;
        var hits = answer.filter(function (v) { return q.correctAnswers.indexOf(v) >= 0; }).length;
        var right = q.correctAnswers.filter(function (v, i, all) { return all.indexOf(v) === i; }).length;
        return Math.max(0, (hits - (answer.length - hits)) / right);
      }
      case 'true_false':
        return String(answer) === q.correctAnswer ? 1 : 0;
      case 'short_answer':
        return q.correctAnswer !== undefined && norm(answer) === norm(q.correctAnswer) ? 1 : 0;
      case 'numeric': {
        var given = parseNumber(answer), expected = parseNumber(q.correctAnswer);
        return isFinite(given) && isFinite(expected) && Math.abs(given - expected) <= (q.tolerance || 0) + 1e-9 ? 1 : 0;
      }
      default:
        return 0;
    }
  }
  function earnedFor(q, answer, scoring) {
    if (isBlank(answer)) return 0;
    var part = share(q, answer);
    if (part >= 1 - 1e-9) return q.points;
    return scoring === 'proportional' ? Math.round(q.points * part * 100) / 100 : 0;
  }
  function answerIn(fieldset, q) {
    var inputs = fieldset.querySelectorAll('input');
    if (q.type === 'short_answer' || q.type === 'numeric') return inputs[0].value;
    var chosen = [];
    for (var i = 0; i < inputs.length; i++) if (inputs[i].checked) chosen.push(inputs[i].value);
    if (q.type === 'true_false') return chosen.length ? chosen[0] : null;
    if (q.type === 'single_choice') return chosen.length ? Number(chosen[0]) : null;
    return chosen.map(Number).filter(function (v, i, all) { return all.indexOf(v) === i; });
  }

  function showResult(form, result, quiz) {
    var inputs = form.querySelectorAll('input, button');
    for (var i = 0; i < inputs.length; i++) inputs[i].disabled = true;
    form.querySelector('.quiz-result').textContent = format(text.result, {
      earned: result[0],
      max: result[1],
      percent: result[2],
      verdict: result[3] ? text.passed : text.failed,
    });
    form.setAttribute('data-result', result[3] ? 'passed' : 'failed');
    return quiz;
  }

  function grade(form) {
    var quiz = quizById(form.getAttribute('data-quiz'));
    if (!quiz || state.q[quiz.id]) return;
    var earned = 0, max = quizMax(quiz);
    quiz.questions.forEach(function (q) {
      var fieldset = form.querySelector('[data-question="' + q.id.replace(/"/g, '\\"') + '"]');
      if (fieldset) earned += earnedFor(q, answerIn(fieldset, q), quiz.scoring);
    });
    earned = Math.round(earned * 100) / 100;
    var percent = max === 0 ? 0 : Math.round((earned / max) * 100);
    var result = [earned, max, percent, percent >= quiz.passingScore ? 1 : 0];
    state.q[quiz.id] = result;
    showResult(form, result, quiz);
    save();
  }

  function finish() {
    if (finished || !api) return;
    finished = true;
    save();
    api.LMSFinish('');
  }

  function restore() {
    try {
      var saved = JSON.parse(get('cmi.suspend_data') || 'null');
      if (saved && saved.v instanceof Array && typeof saved.q === 'object') state = saved;
    } catch (e) { /* nothing kept, or not ours: start afresh */ }
    var forms = document.querySelectorAll('form.quiz');
    for (var i = 0; i < forms.length; i++) {
      var result = state.q[forms[i].getAttribute('data-quiz')];
      if (result) showResult(forms[i], result, null);
    }
    var location = get('cmi.core.lesson_location');
    for (var j = 0; j < data.lessons.length; j++) if (data.lessons[j].id === location) return j;
    return 0;
  }

  document.addEventListener('click', function (event) {
    var target = event.target.closest ? event.target.closest('[data-goto], [data-step]') : null;
    if (!target) return;
    event.preventDefault();
    if (target.hasAttribute('data-goto')) show(Number(target.getAttribute('data-goto')));
    else show(current + Number(target.getAttribute('data-step')));
  });
  document.addEventListener('submit', function (event) {
    if (!event.target.matches('form.quiz')) return;
    event.preventDefault();
    grade(event.target);
  });
  window.addEventListener('pagehide', finish);
  window.addEventListener('beforeunload', finish);
  window.addEventListener('unload', finish);

  if (api) api.LMSInitialize('');
  else if (statusLine) statusLine.textContent = text.noApi;
  show(restore());
})();
`;

export const PLAYER_STYLE = `body { margin: 0; font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1f2933; background: #f7f8fa; }
header { padding: 12px 24px; background: #fff; border-bottom: 1px solid #e1e4e8; }
header h1 { margin: 0; font-size: 22px; }
.status { margin: 4px 0 0; color: #b42318; }
.layout { display: flex; gap: 24px; padding: 24px; align-items: flex-start; }
nav { flex: 0 0 260px; background: #fff; border: 1px solid #e1e4e8; border-radius: 8px; padding: 12px 16px; }
nav h2 { font-size: 16px; margin: 0 0 8px; }
nav ol { padding-left: 18px; margin: 0; }
nav .module { font-weight: 600; }
nav a[aria-current] { font-weight: 600; color: #1d4ed8; }
main { flex: 1; min-width: 0; background: #fff; border: 1px solid #e1e4e8; border-radius: 8px; padding: 16px 24px; }
.crumbs { color: #616e7c; margin: 0; }
figure { margin: 16px 0; }
img, video { max-width: 100%; height: auto; }
audio { width: 100%; }
.note { color: #616e7c; font-style: italic; }
.quiz { border-top: 1px solid #e1e4e8; margin-top: 16px; padding-top: 8px; }
.question { border: 1px solid #e1e4e8; border-radius: 6px; margin: 12px 0; padding: 8px 12px; }
.option { display: block; margin: 4px 0; }
.answer { width: 100%; max-width: 400px; padding: 6px; }
.quiz-result { font-weight: 600; }
.pager { display: flex; justify-content: space-between; margin-top: 24px; }
button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #9aa5b1; background: #fff; cursor: pointer; }
@media (max-width: 720px) { .layout { flex-direction: column; padding: 12px; } nav { flex: none; width: 100%; box-sizing: border-box; } }
`;
