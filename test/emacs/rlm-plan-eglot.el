;;; rlm-plan-eglot.el --- the rlm-plan language server in Emacs's eglot -*- lexical-binding: t -*-
;; Emacs 28 with Debian's elpa-eglot, or Emacs 29 and later (eglot built in); tested on Debian's
;; Emacs 28.2 and eglot 1.9 by test/emacs/emacs.test.ts. The part between the two "configuration"
;; lines is the configuration server/README.md shows (the test checks that it still does): copy it
;; into your init.el. The test driver at the end runs only when the test sets RLM_PLAN_EMACS_OUT.
;;
;;   emacs --batch -l test/emacs/rlm-plan-eglot.el plans/broken.rlmplan.json

;; ---- configuration ----
;; The server: the package's bin on PATH. From a checkout, set this first:
;;   (setq rlm-plan-server-command '("node" "/path/to/rlm-plan/server/bin/rlm-plan-language-server.js" "--stdio"))
(defvar rlm-plan-server-command '("rlm-plan-language-server" "--stdio"))
(require 'eglot)
;; Plans get their own mode, so eglot sends the language id `rlm-plan`; js-mode reads JSON.
(define-derived-mode rlm-plan-mode js-mode "RLM-Plan")
(add-to-list 'auto-mode-alist '("\\.rlmplan\\(\\.json\\)?\\'" . rlm-plan-mode))
(add-to-list 'eglot-server-programs `(rlm-plan-mode . ,rlm-plan-server-command))
(add-hook 'rlm-plan-mode-hook #'eglot-ensure)
;; The `rlmPlan` section the server asks for (workspace/configuration).
(setq-default eglot-workspace-configuration '(:rlmPlan (:hostProblemsAsErrors :json-false)))
;; ---- end of configuration ----

;; ---- test driver (only with RLM_PLAN_EMACS_OUT) ----
(when (getenv "RLM_PLAN_EMACS_OUT")
  (require 'json)
  (defvar rlm-plan-test--published nil "Each publishDiagnostics as it arrived: (URI . DIAGNOSTICS).")
  (cl-defmethod eglot-handle-notification :before
    (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
    (push (cons uri diagnostics) rlm-plan-test--published))
  (defvar rlm-plan-test--shown nil "What the server said with window/showMessage.")
  (cl-defmethod eglot-handle-notification :before
    (_server (_method (eql window/showMessage)) &key message &allow-other-keys)
    (push message rlm-plan-test--shown))

  (defun rlm-plan-test--wait (done)
    "Lets the server's messages in until DONE says so (at most 10 s)."
    (let ((tries 0))
      (while (and (not (funcall done)) (< tries 200))
        (accept-process-output nil 0.05)
        (setq tries (1+ tries)))
      (funcall done)))

  (defun rlm-plan-test--goto (prefix)
    "Moves to the 0-based line and UTF-16 character in the environment's PREFIX_LINE, PREFIX_CHARACTER."
    (goto-char (eglot--lsp-position-to-point
                (list :line (string-to-number (getenv (concat prefix "_LINE")))
                      :character (string-to-number (getenv (concat prefix "_CHARACTER")))))))

  (defvar rlm-plan-test--root default-directory "The folder Emacs started in: files are named from it.")
  (defun rlm-plan-test--open (file)
    "Visits FILE and connects eglot as a user's first command would (eglot-ensure waits for one)."
    (find-file (expand-file-name file rlm-plan-test--root))
    (run-hooks 'post-command-hook)
    (rlm-plan-test--wait (lambda () (eglot-current-server)))
    (eglot-current-server))

  (defun rlm-plan-test--diagnostics (uri)
    (rlm-plan-test--wait (lambda () (assoc uri rlm-plan-test--published)))
    (mapcar (lambda (d) (list :line (plist-get (plist-get (plist-get d :range) :start) :line)
                              :code (plist-get d :code) :severity (plist-get d :severity)
                              :message (plist-get d :message)))
            (cdr (assoc uri rlm-plan-test--published))))

  (let* ((server (rlm-plan-test--open (getenv "RLM_PLAN_BROKEN")))
         (uri (eglot--path-to-uri (buffer-file-name)))
         (result (list :mode (symbol-name major-mode)
                       :server (and server (plist-get (eglot--server-info server) :name)))))
    (setq result (append result (list :diagnostics (vconcat (rlm-plan-test--diagnostics uri)))))
    ;; Hover on a step, as eldoc asks for it.
    (rlm-plan-test--goto "RLM_PLAN_HOVER")
    (let ((hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
      (setq result (append result (list :hover (plist-get (plist-get hover :contents) :value)))))
    ;; Completion through eglot's completion-at-point function, after `"op": "`.
    (rlm-plan-test--goto "RLM_PLAN_COMPLETE")
    (let ((capf (eglot-completion-at-point)))
      (setq result (append result (list :completion (vconcat (all-completions "" (nth 2 capf)))))))
    ;; The plan that runs: rename a binding with eglot-rename (the edit applied to the buffer), the
    ;; code actions offered on the plan's first line, and the run command, as eglot executes it.
    (rlm-plan-test--open (getenv "RLM_PLAN_GOOD"))
    (rlm-plan-test--wait (lambda () (assoc (eglot--path-to-uri (buffer-file-name)) rlm-plan-test--published)))
    (rlm-plan-test--goto "RLM_PLAN_RENAME")
    (eglot-rename "total")
    (setq result (append result (list :renamed (buffer-substring-no-properties (point-min) (point-max)))))
    (goto-char (point-min))
    (let* ((good (eglot--path-to-uri (buffer-file-name)))
           (actions (jsonrpc-request server :textDocument/codeAction
                                     (list :textDocument (eglot--TextDocumentIdentifier)
                                           :range (list :start (eglot--pos-to-lsp-position) :end (eglot--pos-to-lsp-position))
                                           :context (list :diagnostics []))))
           (run (seq-find (lambda (a) (equal (plist-get a :kind) "source.runPlan")) actions))
           (command (plist-get run :command))
           (answer (and command (eglot-execute-command server (intern (plist-get command :command))
                                                       (plist-get command :arguments)))))
      (rlm-plan-test--wait (lambda () rlm-plan-test--shown))
      (setq result (append result (list :actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions))
                                        :run_uri (and command (aref (plist-get command :arguments) 0))
                                        :good_uri good
                                        :run (list :ok (eq (plist-get answer :ok) t) :value (plist-get answer :value))
                                        :shown (vconcat (reverse rlm-plan-test--shown))))))
    (with-temp-file (getenv "RLM_PLAN_EMACS_OUT") (insert (json-encode result)))
    (set-buffer-modified-p nil)
    (eglot-shutdown server)
    (kill-emacs 0)))
