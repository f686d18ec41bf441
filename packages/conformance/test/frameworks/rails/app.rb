# The service as a Rails developer writes it from the spec, with Rails' defaults (Rails 6.1 in
# API mode, Rack 2.2 and Puma 5.6, as Debian packages them): a controller with a before_action
# that reads the key with authenticate_with_http_token, an ActiveModel NewPet with presence,
# numericality and inclusion validations, to_i for integers in the query and the path, and an
# exceptions_app that answers every error Rails raises outside a controller with an Error.
#
# Usage: API_KEY=... ruby app.rb  (listens on 127.0.0.1, port 0; prints "listening on PORT";
# stops when its stdin closes, so that it never outlives the test that started it)
require 'action_controller/railtie'
require 'active_model/railtie'
require_relative '../serve_on_puma'

STATUSES = %w[available pending sold].freeze
PETS = []
STORING = Mutex.new

def error_body(status, code, message)
  { code: code, message: message, status: status }
end

class PetApp < Rails::Application
  config.load_defaults 6.1
  config.api_only = true
  config.eager_load = false
  config.logger = Logger.new(nil)
  config.secret_key_base = 'framework-app'
  config.hosts.clear
  config.consider_all_requests_local = false
  config.exceptions_app = lambda do |env|
    status = env['PATH_INFO'].delete_prefix('/').to_i
    reason = Rack::Utils::HTTP_STATUS_CODES.fetch(status, 'Error')
    body = error_body(status, reason.downcase.tr(' ', '_'), reason)
    [status, { 'Content-Type' => 'application/json' }, [body.to_json]]
  end
  routes.append do
    scope 'v1' do
      get 'pets', to: 'pets#index'
      post 'pets', to: 'pets#create'
      get 'pets/:pet_id', to: 'pets#show'
    end
  end
end

class NewPet
  include ActiveModel::Model

  attr_accessor :name, :categoryId, :status

  validates :name, presence: true
  validates :categoryId, numericality: { only_integer: true, greater_than_or_equal_to: -2**63, less_than: 2**63 }
  validates :status, inclusion: { in: STATUSES }, allow_nil: true
end

class PetsController < ActionController::API
  include ActionController::HttpAuthentication::Token::ControllerMethods

  before_action :authenticate
  before_action :deprecate, only: :show

  def index
    limit = params.fetch(:limit, 20).to_i
    return fail!(400, 'invalid_limit', 'limit is an integer from 1 to 100') unless (1..100).cover?(limit)

    status = params[:status]
    if status && !STATUSES.include?(status)
      return fail!(400, 'invalid_status', "status is one of #{STATUSES.join(', ')}")
    end

    render json: PETS.select { |pet| status.nil? || pet[:status] == status }.first(limit)
  end

  def create
    new_pet = NewPet.new(params.permit(:name, :categoryId, :status).to_h)
    return fail!(400, 'validation_failed', new_pet.errors.full_messages.join('; ')) unless new_pet.valid?

    pet = { name: new_pet.name, categoryId: new_pet.categoryId }
    pet[:status] = new_pet.status unless new_pet.status.nil?
    # Puma serves from several threads: one pet at a time gets the next id.
    pet = STORING.synchronize { { id: PETS.size + 1 }.merge(pet).tap { |stored| PETS << stored } }
    render json: pet, status: :created, location: "/v1/pets/#{pet[:id]}"
  end

  def show
    pet = PETS.find { |p| p[:id] == params[:pet_id].to_i }
    return fail!(404, 'not_found', "no pet #{params[:pet_id]}") if pet.nil?

    render json: pet
  end

  private

  def fail!(status, code, message)
    render json: error_body(status, code, message), status: status
  end

  def authenticate
    authenticate_with_http_token { |token, _| token == ENV.fetch('API_KEY') } ||
      fail!(401, 'unauthorized', 'send Authorization: Bearer <key>')
  end

  def deprecate
    response.headers['Deprecation'] = '@1767225600'
    response.headers['Sunset'] = 'Thu, 05 Dec 2030 00:00:00 GMT'
    response.headers['Link'] = '</v1/pets>; rel="successor-version"'
  end
end

PetApp.initialize!

serve_on_puma(PetApp)
