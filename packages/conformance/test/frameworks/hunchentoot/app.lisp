;;;; The Animal Store pet API as a Common Lisp developer writes it from the spec with Hunchentoot's
;;;; defaults (Hunchentoot 1.2, yason 0.7 and SBCL, as Debian packages them): an easy-acceptor,
;;;; define-easy-handler for /v1/pets with an integer limit parameter, a regex dispatcher for
;;;; /v1/pets/<id>, raw-post-data read as text and parsed by yason, and an Error body for every
;;;; answer that is one: the handlers' own, and Hunchentoot's status messages (its 404 and 500
;;;; pages) in their place.
;;;;
;;;; Usage: API_KEY=... sbcl --noinform --non-interactive --load app.lisp  (listens on 127.0.0.1,
;;;; port 0; prints "listening on PORT"; stops when its stdin closes, so that it never outlives the
;;;; test that started it)

(require :asdf)
(asdf:load-systems :hunchentoot :yason)

(defpackage :petapp
  (:use :cl :hunchentoot))

(in-package :petapp)

(defparameter *statuses* '("available" "pending" "sold"))

(defvar *expected-authorization* (concatenate 'string "Bearer " (uiop:getenv "API_KEY")))

;;; The pets, oldest first: a pet's id is its place in the vector, plus one.
(defvar *pets* (make-array 0 :adjustable t :fill-pointer t))
(defvar *pets-lock* (bt:make-lock "pets"))

(defun answer (status body)
  "Answers STATUS with BODY as JSON."
  (setf (return-code*) status
        (content-type*) "application/json")
  (with-output-to-string (out)
    (yason:encode body out)))

(defun fail (status code message)
  "Answers STATUS with the spec's Error body."
  (setf (return-code*) status
        (content-type*) "application/json")
  (with-output-to-string (out)
    (yason:encode-plist (list "code" code "message" message "status" status) out)))

;;; Hunchentoot's own answers (no handler for a path, an error in a handler) as Error bodies.
(defclass pet-acceptor (easy-acceptor) ())

(defmethod acceptor-status-message ((acceptor pet-acceptor) status &key &allow-other-keys)
  (if (>= status 400)
      (fail status
            (substitute #\_ #\Space (string-downcase (reason-phrase status)))
            (string-downcase (reason-phrase status)))
      (call-next-method)))

(defun authorized-p ()
  (equal (header-in* :authorization) *expected-authorization*))

(defun unauthorized ()
  (fail 401 "unauthorized" "send Authorization: Bearer <key>"))

(defun list-pets (limit status)
  (cond ((not (<= 1 limit 100))
         (fail 400 "invalid_limit" "limit is an integer from 1 to 100"))
        ((and status (not (member status *statuses* :test #'equal)))
         (fail 400 "invalid_status" "status is one of available, pending, sold"))
        (t
         (let ((listed (bt:with-lock-held (*pets-lock*)
                         (remove-if-not (lambda (pet)
                                          (or (null status)
                                              (equal status (gethash "status" pet))))
                                        *pets*))))
           (answer 200 (subseq listed 0 (min limit (length listed))))))))

(defun new-pet-problem (body)
  "Why BODY is no NewPet, or NIL."
  (cond ((not (hash-table-p body)) "the body is a NewPet object")
        ((not (stringp (gethash "name" body))) "name is a string, and required")
        ((not (typep (gethash "categoryId" body) '(signed-byte 64)))
         "categoryId is an int64 integer, and required")
        ((multiple-value-bind (status present) (gethash "status" body)
           (and present (not (member status *statuses* :test #'equal))))
         "status is one of available, pending, sold")))

(defun create-pet ()
  (let ((body (handler-case (yason:parse (raw-post-data :force-text t))
                (error () (return-from create-pet
                            (fail 400 "malformed_json" "the body is no JSON"))))))
    (let ((problem (new-pet-problem body)))
      (when problem
        (return-from create-pet (fail 400 "validation_failed" problem))))
    (let ((pet (make-hash-table :test #'equal)))
      (bt:with-lock-held (*pets-lock*)
        (setf (gethash "id" pet) (1+ (length *pets*))
              (gethash "name" pet) (gethash "name" body)
              (gethash "categoryId" pet) (gethash "categoryId" body))
        (multiple-value-bind (status present) (gethash "status" body)
          (when present
            (setf (gethash "status" pet) status)))
        (vector-push-extend pet *pets*))
      (setf (header-out :location) (format nil "/v1/pets/~D" (gethash "id" pet)))
      (answer 201 pet))))

(define-easy-handler (pets :uri "/v1/pets") ((limit :parameter-type 'integer :init-form 20)
                                             status)
  (cond ((not (authorized-p)) (unauthorized))
        ((member (request-method*) '(:get :head)) (list-pets limit status))
        ((eq (request-method*) :post) (create-pet))
        (t (setf (header-out :allow) "GET, POST")
           (fail 405 "method_not_allowed" "/pets takes GET and POST"))))

;;; getPet is deprecated: every answer says so, and names its successor.
(defun get-pet ()
  (cond ((not (authorized-p)) (unauthorized))
        ((not (member (request-method*) '(:get :head)))
         (setf (header-out :allow) "GET")
         (fail 405 "method_not_allowed" "/pets/{petId} takes GET"))
        (t
         (setf (header-out "Deprecation") "@1767225600"
               (header-out "Sunset") "Thu, 05 Dec 2030 00:00:00 GMT"
               (header-out "Link") "</v1/pets>; rel=\"successor-version\"")
         (let* ((id (parse-integer (script-name*) :start (length "/v1/pets/")))
                (pet (bt:with-lock-held (*pets-lock*)
                       (find id *pets* :key (lambda (pet) (gethash "id" pet))))))
           (if pet
               (answer 200 pet)
               (fail 404 "not_found" (format nil "no pet ~D" id)))))))

(push (create-regex-dispatcher "^/v1/pets/\\d+$" 'get-pet) *dispatch-table*)

(defvar *server*
  (start (make-instance 'pet-acceptor :address "127.0.0.1" :port 0
                                      :access-log-destination nil)))

(format t "listening on ~D~%" (acceptor-port *server*))
(finish-output)

;;; Stops when stdin closes.
(loop while (read-line *standard-input* nil))
(stop *server*)
(uiop:quit 0)
